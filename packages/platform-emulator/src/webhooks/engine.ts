import type { EmulatorClock } from "../clock/clock.ts";
import type { ResolvedOptions } from "../options.ts";
import { consumeFault, type FaultState } from "../state/faults.ts";
import type { EmulatorState } from "../state/store.ts";
import { eventView } from "../state/task-views.ts";
import type { TaskRecord } from "../state/types.ts";
import { checked } from "../util/checked.ts";
import { randomHex, randomId } from "../util/random.ts";
import type { Tracker } from "../util/tracker.ts";
import { attemptDelivery } from "./attempt.ts";
import type { AttemptLog, DeliveryRecord } from "./types.ts";
import { wireUrl } from "./wire-url.ts";

export interface WebhookEngine {
  /** Called on every task status change (spec 6): emits one event when 5 rule 6 holds. */
  onTaskChange(task: TaskRecord): void;
  list(): DeliveryRecord[];
  get(id: string): DeliveryRecord | undefined;
  /** Manual retry of a failed or dropped record (spec 6 rule 4): one attempt, awaited. */
  retry(id: string): Promise<DeliveryRecord | undefined>;
  /** Sends events held by the `reorder` fault now, newest first. */
  flushHeld(taskId?: string): void;
  /** Aborts attempts in flight and forgets every record (reset, close). */
  reset(): void;
  /**
   * After a restart: takes back saved records and carries on. Scheduled attempts and retries are
   * re-armed at their stored time; an attempt that was in flight when the emulator stopped is
   * logged as interrupted and retried by the schedule; held events (a fault, not saved) go now.
   */
  restore(saved: readonly DeliveryRecord[]): void;
}

const MAX_RECORDS = 5_000;

export function createWebhookEngine(deps: {
  state: EmulatorState;
  clock: EmulatorClock;
  options: ResolvedOptions;
  faults: FaultState;
  tracker: Tracker;
  /** Called when a record changes outside a request (an attempt ended), for persistence. */
  changed?: () => void;
}): WebhookEngine {
  const { state, clock, options, faults, tracker } = deps;
  const changed = deps.changed ?? (() => undefined);
  const records = new Map<string, DeliveryRecord>();
  const held = new Map<string, DeliveryRecord[]>();
  let abort = new AbortController();

  const log = (r: DeliveryRecord, entry: AttemptLog) => r.attempts.push(entry);

  function attempt(r: DeliveryRecord, trigger: AttemptLog["trigger"]): Promise<void> {
    r.state = "in_flight";
    r.timer = undefined;
    r.nextAttemptAt = undefined;
    const at = clock.now();
    const signal = abort.signal;
    const secret = nonEmpty(state.accounts.get(r.namespace)?.webhookSecret) ?? r.secretAtEvent;
    const work = attemptDelivery({
      url: r.url,
      body: r.body,
      secret,
      timestamp: options.timestampClock === "wall" ? Date.now() : at,
      reading: options.queryReading,
      timeoutMs: options.webhookTimeoutMs,
      fetch: options.fetch,
      signal,
    })
      .catch((error: unknown) => ({
        signTimestamp: "",
        outcome: "network" as const,
        error: `could not send: ${error instanceof Error ? error.message : String(error)}`,
        durationMs: 0,
      }))
      .then((result) => {
        if (signal.aborted) return; // reset while in flight: the record is gone
        ended(r, trigger, at, result);
        changed();
      });
    return tracker.track(work);
  }

  function ended(
    r: DeliveryRecord,
    trigger: AttemptLog["trigger"],
    at: number,
    result: Omit<AttemptLog, "attempt" | "trigger" | "at">,
  ): void {
    log(r, { attempt: r.attempts.length + 1, trigger, at, ...result });
    if (result.outcome === "success") r.state = "succeeded";
    else if (trigger !== "manual" && r.retriesUsed < options.retryDelaysMs.length)
      schedule(r, options.retryDelaysMs[r.retriesUsed++] ?? 0, "retry");
    else r.state = "failed";
  }

  function schedule(r: DeliveryRecord, delayMs: number, trigger: "automatic" | "retry"): void {
    r.state = trigger === "retry" ? "retry_scheduled" : "scheduled";
    armAt(r, clock.now() + delayMs, trigger);
  }

  function armAt(r: DeliveryRecord, due: number, trigger: "automatic" | "retry"): void {
    r.nextAttemptAt = due;
    r.timer = clock.setTimer(due - clock.now(), () => void attempt(r, trigger));
  }

  /** Resolves once the first attempt is over (at once when the `delay` fault schedules it). */
  function dispatch(r: DeliveryRecord): Promise<void> {
    const delay = faults.webhooks.delayMs ?? 0;
    if (delay > 0) {
      schedule(r, delay, "automatic");
      return Promise.resolve();
    }
    return attempt(r, "automatic");
  }

  function add(r: DeliveryRecord): void {
    records.set(r.id, r);
    if (records.size > MAX_RECORDS) {
      const oldest = records.keys().next().value;
      if (oldest !== undefined) records.delete(oldest);
    }
  }

  function flushHeld(taskId?: string): void {
    for (const [id, list] of held) {
      if (taskId !== undefined && id !== taskId) continue;
      held.delete(id);
      // One after another: attempts started together race on signing and on the network, so the
      // receiver could see them in any order, and this fault promises newest first.
      void tracker.track(sendInOrder([...list].reverse()));
    }
  }

  async function sendInOrder(list: DeliveryRecord[]): Promise<void> {
    for (const r of list) await dispatch(r);
  }

  return {
    onTaskChange(task) {
      const secret = state.accounts.get(task.namespace)?.webhookSecret ?? "";
      if (!task.webhookUrl || secret === "") return; // spec 5 rule 6: no callback at all
      const eventId = options.shape.eventIds === "live" ? randomHex(16) : randomId("evt_", 16);
      const body = JSON.stringify(checked("callbackEvent", eventView(options, eventId, task)));
      const make = (duplicateOf?: string): DeliveryRecord => ({
        id: randomId("dlv_", 12),
        eventId,
        taskId: task.id,
        namespace: task.namespace,
        eventStatus: task.status,
        url: wireUrl(task.webhookUrl ?? ""),
        body,
        createdAt: clock.now(),
        state: "scheduled",
        attempts: [],
        retriesUsed: 0,
        secretAtEvent: secret,
        ...(duplicateOf ? { duplicateOf } : {}),
      });
      const record = make();
      add(record);
      if (consumeFault(faults.webhooks, "drop")) {
        record.state = "dropped";
        return;
      }
      const copies = consumeFault(faults.webhooks, "duplicate")
        ? [record, make(record.id)]
        : [record];
      for (const r of copies) {
        add(r);
        if (faults.webhooks.reorder) {
          r.state = "held";
          held.set(task.id, [...(held.get(task.id) ?? []), r]);
        } else void dispatch(r);
      }
      const terminal = task.status !== "waiting" && task.status !== "in_progress";
      if (terminal) flushHeld(task.id);
    },
    list: () => [...records.values()],
    get: (id) => records.get(id),
    async retry(id) {
      const r = records.get(id);
      if (!r) return undefined;
      if (r.state !== "failed" && r.state !== "dropped") return r;
      await attempt(r, "manual");
      return r;
    },
    flushHeld,
    restore(saved) {
      for (const record of saved) {
        const r: DeliveryRecord = { ...record, attempts: [...record.attempts] };
        delete r.timer;
        add(r);
        const trigger = r.retriesUsed > 0 ? "retry" : "automatic";
        if (r.state === "in_flight")
          ended(r, trigger, clock.now(), {
            signTimestamp: "",
            outcome: "network",
            error: "interrupted: the emulator stopped while this attempt was in flight",
            durationMs: 0,
          });
        else if (r.state === "scheduled" || r.state === "retry_scheduled")
          armAt(r, r.nextAttemptAt ?? clock.now(), trigger);
        else if (r.state === "held") void dispatch(r);
      }
    },
    reset() {
      abort.abort();
      abort = new AbortController();
      for (const r of records.values()) if (r.timer !== undefined) clock.clearTimer(r.timer);
      records.clear();
      held.clear();
    },
  };
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === "" ? undefined : text;
}
