/** Webhook delivery faults. A number means "the next N events", `true` means "every event". */
export interface WebhookFaults {
  drop?: boolean | number;
  duplicate?: boolean | number;
  /** Extra delay before the first attempt, on the emulator clock. */
  delayMs?: number;
  /** Hold each task's events and send them in reverse order once the task ends. */
  reorder?: boolean;
}

/**
 * How an injected task-request fault fails: `5xx` answers at once with a server error, `hang`
 * answers nothing until `releaseHangs()` or `hangMs` (then 504), to test a client's timeouts.
 *
 * @example
 * ```ts
 * emu.control.faults.failNextTaskRequests(1, "hang");
 * ```
 */
export type TaskFaultMode = "5xx" | "hang";

export interface FaultState {
  taskRequests: { remaining: number; mode: TaskFaultMode; status: number };
  /** Submits still to be carried out whose answer is then withheld (see `loseNextSubmitAnswers`). */
  lostSubmitAnswers: number;
  webhooks: WebhookFaults;
  /** Resolvers of hanging requests, released by `releaseHangs`, reset or close. */
  hanging: Set<() => void>;
}

export function createFaultState(): FaultState {
  return {
    taskRequests: { remaining: 0, mode: "5xx", status: 503 },
    lostSubmitAnswers: 0,
    webhooks: {},
    hanging: new Set(),
  };
}

/** Takes one use of a counted fault; `true` stays on until cleared. */
export function consumeFault(faults: WebhookFaults, key: "drop" | "duplicate"): boolean {
  const value = faults[key];
  if (value === true) return true;
  if (typeof value === "number" && value > 0) {
    faults[key] = value - 1;
    return true;
  }
  return false;
}

export function releaseHangs(faults: FaultState): void {
  for (const release of faults.hanging) release();
  faults.hanging.clear();
}
