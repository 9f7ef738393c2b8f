import type { EmulatorClock } from "../clock/clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { FaultState } from "../state/faults.ts";
import type { EmulatorState } from "../state/store.ts";
import type { Tracker } from "../util/tracker.ts";
import { attemptDelivery, type AttemptResult } from "./attempt.ts";
import type { AttemptLog, DeliveryRecord } from "./types.ts";

type Trigger = AttemptLog["trigger"];

/** Runs the attempts of delivery records and schedules their retries (spec 6 rules 3–5, 8). */
export interface DeliveryRunner {
  /** One attempt now, signed afresh; its end logs it and schedules the next retry if any. */
  attempt(r: DeliveryRecord, trigger: Trigger): Promise<void>;
  /** Logs an attempt's result and moves the record on: succeeded, a retry, or failed. */
  ended(r: DeliveryRecord, trigger: Trigger, at: number, result: AttemptResult): void;
  /** Arms the record's next attempt at emulator time `due`. */
  armAt(r: DeliveryRecord, due: number, trigger: "automatic" | "retry"): void;
  /** The first attempt, after the `delayMs` fault if one is set (then resolves at once). */
  dispatch(r: DeliveryRecord): Promise<void>;
  /** Aborts every attempt in flight (reset, close); their results are dropped. */
  abortAll(): void;
}

export interface RunnerDeps {
  state: EmulatorState;
  clock: EmulatorClock;
  options: ResolvedOptions;
  faults: FaultState;
  tracker: Tracker;
  /** Called when a record changes outside a request (an attempt ended), for persistence. */
  changed: () => void;
}

export function createDeliveryRunner(deps: RunnerDeps): DeliveryRunner {
  const { state, clock, options, faults, tracker, changed } = deps;
  let abort = new AbortController();

  function attempt(r: DeliveryRecord, trigger: Trigger): Promise<void> {
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

  function ended(r: DeliveryRecord, trigger: Trigger, at: number, result: AttemptResult): void {
    r.attempts.push({ attempt: r.attempts.length + 1, trigger, at, ...result });
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

  function dispatch(r: DeliveryRecord): Promise<void> {
    const delay = faults.webhooks.delayMs ?? 0;
    if (delay > 0) {
      schedule(r, delay, "automatic");
      return Promise.resolve();
    }
    return attempt(r, "automatic");
  }

  return {
    attempt,
    ended,
    armAt,
    dispatch,
    abortAll() {
      abort.abort();
      abort = new AbortController();
    },
  };
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === "" ? undefined : text;
}
