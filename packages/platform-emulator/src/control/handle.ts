import type { EmulatorSeedInput } from "../seed/schema.ts";
import type { TaskFaultMode, WebhookFaults } from "../state/faults.ts";
import type { AppRecord } from "../state/types.ts";
import type { ConsoleSnapshot, ControlTaskView, DeliveryView } from "./views.ts";

/** Fields of a registered application the console may change (spec 2.1). */
export type ApplicationPatch = Partial<
  Pick<AppRecord, "name" | "description" | "homepage" | "redirect_uri" | "client_secret">
>;

/** A control-plane refusal; the HTTP control plane answers with `status`. */
export class ControlError extends Error {
  override name = "ControlError";
  constructor(
    readonly code: string,
    message: string,
    readonly status: 400 | 404 | 409 = 400,
  ) {
    super(message);
  }
}

/**
 * The faults a test or demo can inject (`emu.control.faults`, or `/__emulator/faults` over
 * HTTP): failing or hanging task requests, submits whose answer is lost, and dropped, duplicated,
 * delayed or reordered webhooks, to prove a client or receiver copes with each.
 *
 * @example
 * ```ts
 * emu.control.faults.failNextTaskRequests(2); // the next two task requests answer 503
 * emu.control.faults.webhooks = { duplicate: 1 }; // the next event is delivered twice
 * emu.control.faults.clear();
 * ```
 */
export interface FaultControl {
  /** The next `n` task requests ({api_url}) fail with a 5xx (default 503) or hang. */
  failNextTaskRequests(n: number, mode?: TaskFaultMode, status?: number): void;
  /** Current webhook faults; assign to replace them. */
  webhooks: WebhookFaults;
  /**
   * The next `n` submits are carried out — the task exists and is charged — but their answers
   * hang like the `hang` mode (504 once released): a POST that landed while its client never
   * learned of it.
   */
  loseNextSubmitAnswers(n: number): void;
  /** Lets hanging task requests answer (504). */
  releaseHangs(): void;
  /**
   * Removes every fault; events held by `reorder` are sent now. Hanging requests stay until
   * `releaseHangs`.
   */
  clear(): void;
  /** The faults in force now, with the counts still to use. */
  get(): {
    taskRequests: { remaining: number; mode: TaskFaultMode; status: number };
    lostSubmitAnswers: number;
    webhooks: WebhookFaults;
  };
}

/** The emulator's control handle; the HTTP control plane (/__emulator/) offers the same. */
export interface EmulatorControl {
  /** Back to the current seed (the last `seed()` or the options' seed): all runtime state goes. */
  reset(): void;
  /** Replaces the seed and resets. */
  seed(seed: EmulatorSeedInput): void;
  /** The emulator's clock: read the time, move it (`manual`), or change its scale (`real`). */
  readonly clock: {
    /** The emulator's time in epoch milliseconds. */
    now(): number;
    readonly scale: number;
    readonly mode: "manual" | "real" | "source";
    /** Moves emulator time, firing due timers in order and letting started deliveries finish. */
    advance(ms: number): Promise<void>;
    /** Changes how fast a `real` clock runs from now on (60: an emulated minute a second). */
    setScale(scale: number): void;
  };
  /** Fires timers already due (for injected clocks), then settles. */
  tick(): Promise<void>;
  /** Waits until no webhook attempt is in flight. */
  settle(): Promise<void>;
  /**
   * The console's resources, raw secrets and tokens included (what `/__emulator/state` and the
   * console page show).
   */
  snapshot(): ConsoleSnapshot;
  /**
   * Console "revoke authorization" (spec 2.4): ends the grants of one user (by `userId` or
   * `login`) to one app, with their tokens. Returns how many grants it revoked; throws a
   * {@link ControlError} for an unknown user.
   */
  revokeAuthorization(input: { clientId: string; userId?: number; login?: string }): number;
  /** Console "reset webhook secret" (spec 2.8): a new random secret, returned. */
  resetWebhookSecret(namespace: string): string;
  /** Sets an account's webhook secret to a known value; `""` turns its callbacks off (spec 2.8). */
  setWebhookSecret(namespace: string, secret: string): void;
  /**
   * Sets how many tasks an account may run at once (spec 4.7's `max_concurrency`); throws a
   * {@link ControlError} unless it is an integer ≥ 0.
   */
  setQuota(namespace: string, quota: number): void;
  /**
   * Console "edit application": changes fields of a registered application in place (grants and
   * tokens stay), e.g. its `redirect_uri` once the backend's port is known. Returns the record.
   */
  updateApplication(clientId: string, patch: ApplicationPatch): AppRecord;
  /** Every task, or those of one account or status, with the emulator's notes (plan, webhook URL). */
  listTasks(filter?: { namespace?: string; status?: string }): ControlTaskView[];
  /** One task by id, or `undefined`. */
  getTask(id: string): ControlTaskView | undefined;
  /** Webhook deliveries with every attempt, or those of one task or state (`failed`, `dropped` …). */
  listDeliveries(filter?: { taskId?: string; state?: string }): DeliveryView[];
  /** One delivery by id, with its attempts, or `undefined`. */
  getDelivery(id: string): DeliveryView | undefined;
  /** One manual attempt of a failed or dropped delivery (spec 6 rule 4). */
  retryDelivery(id: string): Promise<DeliveryView>;
  readonly faults: FaultControl;
  /** Writes the state file now (`dataDir`/`stateFile`); otherwise does nothing. */
  flush(): void;
  /** Saves the state (with a state file), then stops timers, aborts deliveries, releases hangs. */
  close(): void;
}
