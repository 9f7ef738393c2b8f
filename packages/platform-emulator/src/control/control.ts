import type { EmulatorContext } from "../context.ts";
import { parseSeed, type EmulatorSeedInput } from "../seed/schema.ts";
import { releaseHangs, type TaskFaultMode, type WebhookFaults } from "../state/faults.ts";
import type { AppRecord } from "../state/types.ts";
import { randomId } from "../util/random.ts";
import {
  consoleSnapshot,
  controlTaskView,
  deliveryView,
  type ConsoleSnapshot,
  type ControlTaskView,
  type DeliveryView,
} from "./views.ts";

/** Fields of a registered application the console may change (spec 2.1). */
export type ApplicationPatch = Partial<
  Pick<AppRecord, "name" | "description" | "homepage" | "redirect_uri" | "client_secret">
>;

const APP_FIELDS = ["name", "description", "homepage", "redirect_uri", "client_secret"] as const;

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

export function createControl(ctx: EmulatorContext): EmulatorControl {
  let currentSeed = ctx.state.seed;
  const settle = () => ctx.tracker.settle();
  const saved = <T>(value: T): T => {
    ctx.persistence.changed();
    return value;
  };
  const account = (namespace: string) => {
    const found = ctx.state.accounts.get(namespace);
    if (!found) throw new ControlError("namespace_not_found", `no namespace ${namespace}`, 404);
    return found;
  };
  const stopAll = () => {
    ctx.tasks.reset();
    ctx.webhooks.reset();
    ctx.clock.clearAll();
    releaseHangs(ctx.faults);
  };
  const clearFaults = () => {
    ctx.faults.taskRequests = { remaining: 0, mode: "5xx", status: 503 };
    ctx.faults.lostSubmitAnswers = 0;
    ctx.faults.webhooks = {};
    ctx.webhooks.flushHeld();
  };
  const reset = () => {
    stopAll();
    clearFaults();
    ctx.state.load(currentSeed);
    ctx.persistence.changed();
  };

  return {
    reset,
    seed(seed) {
      try {
        currentSeed = parseSeed(seed);
      } catch (error) {
        throw new ControlError("invalid_seed", (error as Error).message);
      }
      reset();
    },
    clock: {
      now: () => ctx.clock.now(),
      get scale() {
        return ctx.clock.scale;
      },
      get mode() {
        return ctx.clock.mode;
      },
      advance: (ms) => ctx.clock.advance(ms, settle),
      setScale: (scale) => {
        ctx.clock.setScale(scale);
      },
    },
    async tick() {
      ctx.clock.tick();
      await settle();
    },
    settle,
    snapshot: () => consoleSnapshot(ctx.state, ctx.clock),
    revokeAuthorization({ clientId, userId, login }) {
      const user =
        userId !== undefined ? ctx.state.users.get(userId) : ctx.state.userByLogin(login ?? "");
      if (!user) throw new ControlError("user_not_found", "no such user", 404);
      return saved(ctx.grants.revokeAuthorization(user.id, clientId));
    },
    resetWebhookSecret(namespace) {
      const secret = randomId("whsec_", 24);
      account(namespace).webhookSecret = secret;
      return saved(secret);
    },
    setWebhookSecret(namespace, secret) {
      account(namespace).webhookSecret = saved(secret);
    },
    setQuota(namespace, quota) {
      if (!Number.isInteger(quota) || quota < 0)
        throw new ControlError("invalid_quota", "quota must be an integer ≥ 0");
      account(namespace).quota = saved(quota);
    },
    updateApplication(clientId, patch) {
      const app = ctx.state.apps.get(clientId);
      if (!app) throw new ControlError("application_not_found", `no application ${clientId}`, 404);
      if (patch.redirect_uri !== undefined && !URL.canParse(patch.redirect_uri))
        throw new ControlError("invalid_application", "redirect_uri must be an absolute URL");
      if (patch.client_secret === "")
        throw new ControlError("invalid_application", "client_secret must not be empty");
      for (const key of APP_FIELDS) {
        const value = patch[key];
        if (value !== undefined) app[key] = value;
      }
      return saved({ ...app });
    },
    listTasks(filter = {}) {
      return [...ctx.state.tasks.values()]
        .filter((t) => (filter.namespace ?? t.namespace) === t.namespace)
        .filter((t) => (filter.status ?? t.status) === t.status)
        .map((t) => controlTaskView(ctx.options, t));
    },
    getTask(id) {
      const task = ctx.state.tasks.get(id);
      return task && controlTaskView(ctx.options, task);
    },
    listDeliveries(filter = {}) {
      return ctx.webhooks
        .list()
        .filter((r) => (filter.taskId ?? r.taskId) === r.taskId)
        .filter((r) => (filter.state ?? r.state) === r.state)
        .map(deliveryView);
    },
    getDelivery(id) {
      const r = ctx.webhooks.get(id);
      return r && deliveryView(r);
    },
    async retryDelivery(id) {
      const r = ctx.webhooks.get(id);
      if (!r) throw new ControlError("delivery_not_found", `no delivery ${id}`, 404);
      if (r.state !== "failed" && r.state !== "dropped")
        throw new ControlError(
          "delivery_not_retryable",
          `delivery is ${r.state}; only failed or dropped deliveries can be retried`,
          409,
        );
      await ctx.webhooks.retry(id);
      return saved(deliveryView(r));
    },
    faults: {
      failNextTaskRequests(n, mode = "5xx", status = 503) {
        if (!Number.isInteger(n) || n < 0)
          throw new ControlError("invalid_fault", "n must be an integer ≥ 0");
        if (status < 500 || status > 599)
          throw new ControlError("invalid_fault", "status must be 5xx");
        ctx.faults.taskRequests = { remaining: n, mode, status };
      },
      loseNextSubmitAnswers(n) {
        if (!Number.isInteger(n) || n < 0)
          throw new ControlError("invalid_fault", "n must be an integer ≥ 0");
        ctx.faults.lostSubmitAnswers = n;
      },
      get webhooks() {
        return { ...ctx.faults.webhooks };
      },
      set webhooks(value) {
        ctx.faults.webhooks = { ...value };
        if (!value.reorder) ctx.webhooks.flushHeld();
      },
      releaseHangs: () => {
        releaseHangs(ctx.faults);
      },
      clear: clearFaults,
      get: () => ({
        taskRequests: { ...ctx.faults.taskRequests },
        lostSubmitAnswers: ctx.faults.lostSubmitAnswers,
        webhooks: { ...ctx.faults.webhooks },
      }),
    },
    flush() {
      ctx.persistence.flush();
    },
    close() {
      // Save first: stopping drops timers and records the state file must keep.
      ctx.persistence.close();
      stopAll();
      ctx.clock.close();
    },
  };
}
