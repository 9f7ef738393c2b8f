import type { EmulatorClock } from "../clock/clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { EmulatorState } from "../state/store.ts";
import type { FileRecord, TaskRecord, TaskStatusValue } from "../state/types.ts";
import { randomId } from "../util/random.ts";
import type { WebhookEngine } from "../webhooks/engine.ts";
import type { FileLinks } from "./file-links.ts";
import { applyFailure, applySuccess, requestedSeconds } from "./outcome.ts";

/** The timed part of a task's life (spec 3.1, 8): `waiting` → `in_progress` → its outcome. */
export interface Lifecycle {
  /** Arms the timer of a `waiting` or `in_progress` task at its planned deadline. */
  arm(task: TaskRecord): void;
  /** Sets the status and emits its event. */
  move(task: TaskRecord, status: TaskStatusValue): void;
}

export function createLifecycle(
  state: EmulatorState,
  clock: EmulatorClock,
  options: ResolvedOptions,
  webhooks: WebhookEngine,
  links: FileLinks,
): Lifecycle {
  const move = (task: TaskRecord, status: TaskStatusValue) => {
    task.status = status;
    webhooks.onTaskChange(task);
  };

  // Transitions are stamped with their planned times (the same as the clock's in a normal run),
  // so a task whose deadline passed while the emulator was stopped keeps its own timeline.
  const startsAt = (task: TaskRecord) => task.createdAt + task.plan.waitingMs;
  const endsAt = (task: TaskRecord) => (task.startedAt ?? startsAt(task)) + task.plan.runningMs;
  const at = (due: number, fn: () => void) => clock.setTimer(due - clock.now(), fn);

  const start = (task: TaskRecord) => {
    task.startedAt = startsAt(task);
    task.timer = at(endsAt(task), () => {
      finish(task);
    });
    move(task, "in_progress");
  };

  const finish = (task: TaskRecord) => {
    task.completedAt = endsAt(task);
    task.timer = undefined;
    if (task.plan.fails) {
      applyFailure(options, task);
      move(task, "failure");
      return;
    }
    const requested = requestedSeconds(options, task);
    const file = resultFile(options, task, task.completedAt, requested);
    state.files.set(file.id, file);
    applySuccess(options, task, links.url(file), { requested, seconds: file.seconds });
    task.linkBase = options.baseUrl;
    move(task, "success");
  };

  return {
    arm(task) {
      if (task.status === "waiting")
        task.timer = at(startsAt(task), () => {
          start(task);
        });
      else if (task.status === "in_progress")
        task.timer = at(endsAt(task), () => {
          finish(task);
        });
    },
    move,
  };
}

/** The result's audio file: the requested length within the cap, its link valid `fileTtlMs`. */
function resultFile(
  options: ResolvedOptions,
  task: TaskRecord,
  completedAt: number,
  requested: number,
): FileRecord {
  return {
    id: randomId("", 24),
    taskId: task.id,
    prompt: String(task.parameters.prompt ?? ""),
    seconds: Math.max(1, Math.min(requested, options.maxAudioSeconds)),
    ...options.audioFormat,
    issuedAt: completedAt,
    expiresAt: completedAt + options.fileTtlMs,
  };
}
