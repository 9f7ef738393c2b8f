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
  clear(): void;
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
  readonly clock: {
    now(): number;
    readonly scale: number;
    readonly mode: "manual" | "real" | "source";
    /** Moves emulator time, firing due timers in order and letting started deliveries finish. */
    advance(ms: number): Promise<void>;
    setScale(scale: number): void;
  };
  /** Fires timers already due (for injected clocks), then settles. */
  tick(): Promise<void>;
  /** Waits until no webhook attempt is in flight. */
  settle(): Promise<void>;
  snapshot(): ConsoleSnapshot;
  revokeAuthorization(input: { clientId: string; userId?: number; login?: string }): number;
  /** Console "reset webhook secret" (spec 2.8): a new random secret, returned. */
  resetWebhookSecret(namespace: string): string;
  setWebhookSecret(namespace: string, secret: string): void;
  setQuota(namespace: string, quota: number): void;
  /**
   * Console "edit application": changes fields of a registered application in place (grants and
   * tokens stay), e.g. its `redirect_uri` once the backend's port is known. Returns the record.
   */
  updateApplication(clientId: string, patch: ApplicationPatch): AppRecord;
  listTasks(filter?: { namespace?: string; status?: string }): ControlTaskView[];
  getTask(id: string): ControlTaskView | undefined;
  listDeliveries(filter?: { taskId?: string; state?: string }): DeliveryView[];
  getDelivery(id: string): DeliveryView | undefined;
  /** One manual attempt of a failed or dropped delivery (spec 6 rule 4). */
  retryDelivery(id: string): Promise<DeliveryView>;
  readonly faults: FaultControl;
  /** Writes the state file now (`dataDir`/`stateFile`); otherwise does nothing. */
  flush(): void;
  /** Saves the state (with a state file), then stops timers, aborts deliveries, releases hangs. */
  close(): void;
}
