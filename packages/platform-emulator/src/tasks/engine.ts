import type { EmulatorClock } from "../clock/clock.ts";
import type { DurationRange, ResolvedOptions } from "../options.ts";
import type { EmulatorState } from "../state/store.ts";
import type {
  ConsoleTokenRecord,
  ParamValue,
  TaskRecord,
  TaskStatusValue,
} from "../state/types.ts";
import { randomId, seededRandom } from "../util/random.ts";
import type { WebhookEngine } from "../webhooks/engine.ts";

export const DEFAULT_DURATION_SECONDS = 30;

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
): TaskEngine {
  let random = seededRandom(options.timing.seed);
  const draw = (range: DurationRange) => {
    const [min, max] = typeof range === "number" ? [range, range] : range;
    return Math.round(min + random() * (max - min));
  };

  const move = (task: TaskRecord, status: TaskStatusValue) => {
    task.status = status;
    webhooks.onTaskChange(task);
  };

  const start = (task: TaskRecord) => {
    task.startedAt = clock.now();
    task.timer = clock.setTimer(task.plan.runningMs, () => {
      finish(task);
    });
    move(task, "in_progress");
  };

  const finish = (task: TaskRecord) => {
    task.completedAt = clock.now();
    task.timer = undefined;
    if (task.plan.fails) {
      task.output = {
        error: {
          code: "generation_failed",
          message: "The model failed to generate audio (emulated failure).",
        },
      };
      move(task, "failure");
      return;
    }
    const requested =
      typeof task.parameters.duration === "number"
        ? task.parameters.duration
        : DEFAULT_DURATION_SECONDS;
    const seconds = Math.max(1, Math.min(requested, options.maxAudioSeconds));
    const prompt = String(task.parameters.prompt ?? "");
    const file = {
      id: randomId("", 24),
      taskId: task.id,
      prompt,
      seconds,
      expiresAt: task.completedAt + options.fileTtlMs,
    };
    state.files.set(file.id, file);
    task.output = { file_url: `${options.baseUrl}/files/${file.id}.wav`, duration: seconds };
    task.usageInfo = {
      unit: "second",
      quantity: requested,
      prompt_tokens: countWords(prompt) + countWords(String(task.parameters.lyrics ?? "")),
      completion_tokens: 0,
      resolution: null,
    };
    move(task, "success");
  };

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
        id: randomId("task_", 16),
        namespace: token.namespace,
        consoleTokenId: token.id,
        status: "waiting",
        createdAt: clock.now(),
        parameters,
        output: {},
        usageInfo: {},
        webhookUrl,
        plan,
      };
      state.tasks.set(task.id, task);
      task.timer = clock.setTimer(plan.waitingMs, () => {
        start(task);
      });
      webhooks.onTaskChange(task);
      return { ok: true, task };
    },
    cancel(task) {
      if (task.status !== "waiting" && task.status !== "in_progress") return false;
      if (task.timer !== undefined) clock.clearTimer(task.timer);
      task.timer = undefined;
      task.completedAt = clock.now();
      move(task, "cancelled");
      return true;
    },
    find(id, namespace) {
      const task = state.tasks.get(id);
      return task?.namespace === namespace ? task : undefined;
    },
    reset() {
      for (const t of state.tasks.values()) if (t.timer !== undefined) clock.clearTimer(t.timer);
      random = seededRandom(options.timing.seed);
    },
  };
}

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
