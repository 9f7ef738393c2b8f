import type { EmulatorClock } from "../clock/clock.ts";
import type { DurationRange, ResolvedOptions } from "../options.ts";
import type { EmulatorState } from "../state/store.ts";
import type { ConsoleTokenRecord, ParamValue, TaskRecord } from "../state/types.ts";
import { randomId, randomUpperAlnum, seededRandom } from "../util/random.ts";
import type { WebhookEngine } from "../webhooks/engine.ts";
import type { FileLinks } from "./file-links.ts";
import { createLifecycle } from "./lifecycle.ts";
import { pendingUsage, priceOf, requestedSeconds } from "./outcome.ts";

export type SubmitOutcome =
  { ok: true; task: TaskRecord } | { ok: false; quota: number; active: number };

export interface TaskEngine {
  submit(input: {
    token: ConsoleTokenRecord;
    parameters: Record<string, ParamValue>;
    webhookUrl: string | undefined;
  }): SubmitOutcome;
  /** Cancels a `waiting` or `in_progress` task; false when it is already terminal. */
  cancel(task: TaskRecord): boolean;
  /** A task visible to an account: tasks of other accounts do not exist for it. */
  find(id: string, namespace: string): TaskRecord | undefined;
  /** Stops every lifecycle timer and restarts the PRNG (reset). */
  reset(): void;
  /** How many numbers the PRNG has drawn (saved, so a restart continues the same sequence). */
  draws(): number;
  /**
   * After a restart: advances the PRNG by `draws` and re-arms the timer of every `waiting` or
   * `in_progress` task at its planned deadline (at once when that has passed).
   */
  restore(draws: number): void;
}

/**
 * The lifecycle `waiting` → `in_progress` → `success` | `failure` (spec 3.1, 8), on the emulator
 * clock. Each submit draws its waiting time, running time and outcome from a seeded PRNG, in that
 * order, so the same seed and submission order repeat exactly.
 */
export function createTaskEngine(
  state: EmulatorState,
  clock: EmulatorClock,
  options: ResolvedOptions,
  webhooks: WebhookEngine,
  links: FileLinks,
): TaskEngine {
  const lifecycle = createLifecycle(state, clock, options, webhooks, links);
  let prng = seededRandom(options.timing.seed);
  let drawn = 0;
  const random = () => {
    drawn++;
    return prng();
  };
  const draw = (range: DurationRange) => {
    const [min, max] = typeof range === "number" ? [range, range] : range;
    return Math.round(min + random() * (max - min));
  };
  const newTaskId = () =>
    options.shape.taskIds === "live" ? randomUpperAlnum(32) : randomId("task_", 16);

  return {
    submit({ token, parameters, webhookUrl }) {
      const account = state.accounts.get(token.namespace);
      const quota = account?.quota ?? 0;
      const active = state.activeTaskCount(token.namespace);
      if (active >= quota) return { ok: false, quota, active };
      const plan = {
        waitingMs: draw(options.timing.waitingMs),
        runningMs: draw(options.timing.runningMs),
        fails: random() < options.timing.failureRate,
      };
      const task: TaskRecord = {
        id: newTaskId(),
        sequence: ++state.taskCount,
        namespace: token.namespace,
        consoleTokenId: token.id,
        status: "waiting",
        createdAt: clock.now(),
        parameters,
        output: {},
        usageInfo: pendingUsage(options),
        webhookUrl,
        plan,
      };
      if (options.shape.pricing) task.price = priceOf(requestedSeconds(options, task));
      state.tasks.set(task.id, task);
      lifecycle.arm(task);
      webhooks.onTaskChange(task);
      return { ok: true, task };
    },
    cancel(task) {
      if (task.status !== "waiting" && task.status !== "in_progress") return false;
      if (task.timer !== undefined) clock.clearTimer(task.timer);
      task.timer = undefined;
      task.completedAt = clock.now();
      lifecycle.move(task, "cancelled");
      return true;
    },
    find(id, namespace) {
      const task = state.tasks.get(id);
      return task?.namespace === namespace ? task : undefined;
    },
    reset() {
      for (const t of state.tasks.values()) if (t.timer !== undefined) clock.clearTimer(t.timer);
      prng = seededRandom(options.timing.seed);
      drawn = 0;
    },
    draws: () => drawn,
    restore(draws) {
      prng = seededRandom(options.timing.seed);
      for (drawn = 0; drawn < draws; drawn++) prng();
      for (const task of state.tasks.values()) lifecycle.arm(task);
    },
  };
}
