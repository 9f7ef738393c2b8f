import { isDatabaseUnavailable } from "../../lib/errors.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { ApplyResult, ReportOutcome } from "../tasks/apply.ts";
import type { PlatformReport } from "../tasks/merge.ts";

export interface BatcherOptions {
  metrics: Metrics;
  /** Applies a batch in one transaction of its own and commits it (tasks/apply.ts). */
  transact: (reports: PlatformReport[]) => Promise<ApplyResult>;
  /** Called after a commit with the accounts where a task ended. */
  onCommitted?: (result: ApplyResult) => void;
  /** Most events per transaction. */
  maxBatch?: number;
  /** Transactions allowed in flight at once (1 on PGlite: it has one connection). */
  maxInFlight?: number;
  /**
   * Events that must be waiting before another transaction starts while one commits (default 1).
   * Below that they wait for the commit and go in the next batch: fewer, fuller transactions.
   */
  minToOverlap?: number;
  /**
   * Asked when a batch's turn comes: true gives it one turn of the event loop more, once. The
   * PGlite intake answers "lookups are waiting": they run in that turn, behind this batch
   * otherwise, and the events they let through join it instead of waiting for the next one.
   */
  oneMoreTurn?: () => boolean;
}

interface Pending {
  report: PlatformReport;
  resolve: (outcome: ReportOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for verified webhook events (DESIGN "Webhook intake"). While a transaction
 * commits, new arrivals wait in memory; the next flush takes them all (up to `maxBatch`) into ONE
 * transaction. Every caller's promise settles only after its transaction committed, so a 2xx
 * always means "stored". On failure: database unavailable → every caller gets the error (503, the
 * platform retries); anything else → each event is retried alone, so one poison event cannot fail
 * the others.
 */
export function createBatcher(options: BatcherOptions) {
  const maxBatch = options.maxBatch ?? 256;
  const maxInFlight = options.maxInFlight ?? 1;
  const minToOverlap = options.minToOverlap ?? 1;
  const queue: Pending[] = [];
  let inFlight = 0;
  let idle: (() => void) | undefined;

  const { transact } = options;

  async function flush(batch: Pending[]): Promise<void> {
    options.metrics.webhookBatchSize.observe(batch.length);
    let result: ApplyResult;
    try {
      result = await transact(batch.map((p) => p.report));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        for (const p of batch) p.reject(error);
      } else {
        for (const p of batch) await flushAlone(p);
      }
      return;
    }
    batch.forEach((p, i) => {
      p.resolve(result.outcomes[i] ?? "not_found");
    });
    options.onCommitted?.(result);
  }

  async function flushAlone(p: Pending): Promise<void> {
    let result: ApplyResult;
    try {
      result = await transact([p.report]);
    } catch (error) {
      p.reject(error);
      return;
    }
    p.resolve(result.outcomes[0] ?? "not_found");
    options.onCommitted?.(result);
  }

  async function run(): Promise<void> {
    // One turn of the event loop before taking the batch: requests already being read and
    // verified join it. Costs well under a millisecond; without it an in-process database
    // (PGlite) commits each event before the next one arrives.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (options.oneMoreTurn?.()) await new Promise<void>((resolve) => setImmediate(resolve));
    const batch = queue.splice(0, maxBatch);
    if (batch.length > 0) await flush(batch);
  }

  // A batch in flight takes its events from the queue only at its turn: another starts when more
  // wait than there are batches in flight, and beside one that commits only once minToOverlap do.
  const enoughToStart = () =>
    queue.length > inFlight && (inFlight === 0 || queue.length >= minToOverlap);

  function pump(): void {
    while (inFlight < maxInFlight && enoughToStart()) {
      inFlight += 1;
      void run().finally(() => {
        inFlight -= 1;
        pump();
        if (inFlight === 0 && queue.length === 0) idle?.();
      });
    }
  }

  return {
    /** Resolves after the event's transaction committed. */
    submit(report: PlatformReport): Promise<ReportOutcome> {
      return new Promise<ReportOutcome>((resolve, reject) => {
        queue.push({ report, resolve, reject });
        pump();
      });
    },
    /** Resolves when nothing is queued or committing (shutdown). */
    async drain(): Promise<void> {
      if (inFlight === 0 && queue.length === 0) return;
      await new Promise<void>((resolve) => {
        idle = resolve;
      });
    },
  };
}

export type Batcher = ReturnType<typeof createBatcher>;
