import {
  PLATFORM_ABORTED,
  PLATFORM_DEADLINE_EXCEEDED,
  PlatformError,
  withTaskId,
} from "../errors/index.ts";
import { isTaskStatus, isTerminalStatus, mergeStatus, type TaskStatus } from "../task/index.ts";
import { isRequestTimeout } from "../transport/index.ts";
import { abortableSleep, isRetryable, type Sleep } from "./retry.ts";
import type { TaskWithId } from "./tasks.ts";

/**
 * Polling schedule of a wait (spec 8: 5 to 10 s, with timeouts and exponential back-off).
 * Defaults: 5 s, ×1.5 per unchanged poll up to 10 s, back to 5 s after a change, up to 20%
 * jitter downwards (never below the first interval), doubling after failed polls up to 60 s.
 *
 * @example
 * ```ts
 * await client.waitForTask(token, taskId, { poll: { initialIntervalMs: 8_000 } });
 * ```
 */
export interface PollOptions {
  /** First interval, and the interval after each change. Default 5,000 ms. */
  initialIntervalMs?: number;
  /** Cap of the interval while polls see no change. Default 10,000 ms. */
  maxIntervalMs?: number;
  /** Growth of the interval per unchanged poll. Default 1.5. */
  backoffFactor?: number;
  /** Share of an interval taken off at random, so many waits spread out. Default 0.2. */
  jitterRatio?: number;
  /** Cap of the interval after failed polls (doubling per failure). Default 60,000 ms. */
  maxErrorIntervalMs?: number;
}

/**
 * Options of `watchTask` (spec 8 polling): one `AbortSignal` and one deadline for the whole wait.
 *
 * @example
 * ```ts
 * const options: WatchTaskOptions = { signal: controller.signal, timeoutMs: 15 * 60_000 };
 * ```
 */
export interface WatchTaskOptions {
  /** Ends the wait at once, also during a sleep, with `PLATFORM_ABORTED`. */
  signal?: AbortSignal | undefined;
  /** Overall deadline, ms since the epoch on the client's clock. Wins over `timeoutMs`. */
  deadline?: number | undefined;
  /** Overall time limit in ms from the start of the wait. Default 30 minutes (spec 8: tasks
   *  usually take 1 to 10). `Infinity` waits without limit. */
  timeoutMs?: number | undefined;
  /** Per-poll request timeout in ms (cut to what is left of the deadline). */
  requestTimeoutMs?: number | undefined;
  /** Polling schedule, over the client's defaults. */
  poll?: PollOptions | undefined;
  /** Called when a poll reports a status the spec does not list; polling goes on. */
  onUnknownStatus?: ((status: string, task: TaskWithId) => void) | undefined;
  /** Called when a poll fails with a transient error, before backing off for `delayMs`. */
  onRetry?: ((error: PlatformError, delayMs: number) => void) | undefined;
}

/**
 * Options of `waitForTask` (spec 8 polling).
 *
 * @example
 * ```ts
 * await client.waitForTask(token, taskId, { onChange: (task) => render(task.status) });
 * ```
 */
export interface WaitForTaskOptions extends WatchTaskOptions {
  /** Called with the task on each status change, the first observation included. */
  onChange?: ((task: TaskWithId) => void) | undefined;
}

/**
 * Default overall limit of a wait: 30 minutes (spec 8: tasks usually take 1 to 10).
 *
 * @example
 * ```ts
 * await client.waitForTask(token, taskId, { timeoutMs: DEFAULT_WAIT_TIMEOUT_MS / 2 });
 * ```
 */
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;

/**
 * What a watch needs from the client (spec 4.7 query, spec 8 polling); injected so the
 * schedule is tested on a fake clock.
 *
 * @example
 * ```ts
 * const deps: WatchDependencies = { getTaskOnce: (o) => getTask({ apiUrl, apiToken, taskId, ...o }),
 *   now: Date.now, sleep: defaultSleep, random: Math.random, requestTimeoutMs: 30_000 };
 * ```
 */
export interface WatchDependencies {
  /** One query of the task, with the wait's signal and what is left of its time. */
  getTaskOnce: (options: {
    signal?: AbortSignal | undefined;
    timeoutMs?: number | undefined;
  }) => Promise<TaskWithId>;
  /** Clock in ms since the epoch. */
  now: () => number;
  /** Waits between polls; injectable so tests run instantly. */
  sleep: Sleep;
  /** Randomness of the jitter, in [0, 1). */
  random: () => number;
  /** Timeout of one query, in ms. */
  requestTimeoutMs: number;
  /** The polling schedule; see {@link PollOptions}. */
  poll?: PollOptions | undefined;
}

function schedule(options: PollOptions = {}): Required<PollOptions> {
  return {
    initialIntervalMs: options.initialIntervalMs ?? 5_000,
    maxIntervalMs: options.maxIntervalMs ?? 10_000,
    backoffFactor: options.backoffFactor ?? 1.5,
    jitterRatio: options.jitterRatio ?? 0.2,
    maxErrorIntervalMs: options.maxErrorIntervalMs ?? 60_000,
  };
}

/**
 * Polls a task and yields it on each status change (the first observation included) until a
 * terminal status, which is yielded last (spec 8 polling; status only moves forward, see
 * `mergeStatus` of `@overture/core/task`). The engine of `createPlatformClient().watchTask`.
 *
 * @example
 * ```ts
 * for await (const task of watchTaskWith("t1", { getTaskOnce, now: Date.now, sleep: defaultSleep,
 *   random: Math.random, requestTimeoutMs: 30_000 })) console.log(task.status);
 * ```
 */
export async function* watchTaskWith(
  taskId: string,
  deps: WatchDependencies,
  options: WatchTaskOptions = {},
): AsyncGenerator<TaskWithId, void, undefined> {
  const poll = schedule({ ...deps.poll, ...options.poll });
  const { signal } = options;
  const deadline = options.deadline ?? deps.now() + (options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS);
  const jitter = (ms: number) =>
    Math.max(poll.initialIntervalMs, ms * (1 - poll.jitterRatio * deps.random()));
  let current: TaskStatus | undefined;
  let lastStatus: string | undefined;
  let interval = poll.initialIntervalMs;
  let failures = 0;
  const deadlineError = (cause?: unknown) =>
    new PlatformError(
      PLATFORM_DEADLINE_EXCEEDED,
      `Task ${taskId} did not finish before the deadline (last status: ${lastStatus ?? "unknown"})`,
      { taskId, cause },
    );

  for (;;) {
    if (signal?.aborted)
      throw new PlatformError(PLATFORM_ABORTED, `Aborted waiting for task ${taskId}`, {
        taskId,
        cause: signal.reason,
      });
    const remaining = deadline - deps.now();
    if (remaining <= 0) throw deadlineError();
    const cutByDeadline = !(deps.requestTimeoutMs > 0 && deps.requestTimeoutMs < remaining);
    const timeoutMs = cutByDeadline ? remaining : deps.requestTimeoutMs;

    let task: TaskWithId | undefined;
    let delay = interval;
    try {
      task = await deps.getTaskOnce({ signal, timeoutMs });
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      if (cutByDeadline && isRequestTimeout(error)) throw deadlineError(error);
      if (!isRetryable(error)) throw withTaskId(error, taskId);
      failures++;
      delay = jitter(Math.min(poll.maxErrorIntervalMs, interval * 2 ** failures));
      delay = Math.max(delay, error.retryAfterMs ?? 0);
      options.onRetry?.(withTaskId(error, taskId), delay);
    }

    if (task) {
      failures = 0;
      lastStatus = task.status;
      let changed = false;
      if (!isTaskStatus(task.status)) options.onUnknownStatus?.(task.status, task);
      else if (current === undefined || mergeStatus(current, task.status).changed) {
        current = task.status;
        changed = true;
      }
      if (changed) {
        yield task;
        if (isTerminalStatus(task.status)) return;
        interval = poll.initialIntervalMs;
      } else {
        interval = Math.min(poll.maxIntervalMs, interval * poll.backoffFactor);
      }
      delay = jitter(interval);
    }

    const left = deadline - deps.now();
    if (left <= 0) throw deadlineError();
    await abortableSleep(deps.sleep, Math.min(delay, left), signal, taskId);
  }
}

/**
 * Runs {@link watchTaskWith} to the end and returns the terminal task (`success`, `failure` or
 * `cancelled`: a failed task is returned, not thrown). The engine of
 * `createPlatformClient().waitForTask` (spec 8 polling).
 *
 * @example
 * ```ts
 * const task = await waitForTaskWith("t1", deps, { timeoutMs: 15 * 60_000 });
 * ```
 */
export async function waitForTaskWith(
  taskId: string,
  deps: WatchDependencies,
  options: WaitForTaskOptions = {},
): Promise<TaskWithId> {
  let last: TaskWithId | undefined;
  for await (const task of watchTaskWith(taskId, deps, options)) {
    options.onChange?.(task);
    last = task;
  }
  // watchTaskWith only ends after yielding a terminal task; anything else throws.
  if (!last) throw new Error(`Internal error: the wait for task ${taskId} ended without a task`);
  return last;
}
