/**
 * When the reconciler polls a task next (DESIGN "A music task's life" step 4). Pure functions of
 * the task's state, the time and a random source, so the schedule is unit-testable.
 *
 * - No webhook expected: the spec's 5–10 s (spec 8), 5 s × 1.25^n capped at 10 s, ±20 % jitter
 *   that never leaves 5–10 s (a jittered 4 s would poll faster than the spec recommends).
 * - Webhook expected: a slow safety net, 60–120 s, but never later than the moment the task
 *   outgrows the spec's "usually 1 to 10 minutes": past that the webhook is overdue and the task is
 *   polled like one without a webhook.
 * - Errors: exponential from 5 s, capped at 60 s, never sooner than the platform's Retry-After.
 */
export interface PollSchedule {
  /** Expected upper bound of a task's duration (spec 8: usually 1 to 10 minutes). */
  expectedDurationMs: number;
  random: () => number;
}

export const DEFAULT_EXPECTED_DURATION_MS = 10 * 60_000;
const FAST_BASE_MS = 5_000;
const FAST_CAP_MS = 10_000;
const SAFETY_NET_MIN_MS = 60_000;
const SAFETY_NET_MAX_MS = 120_000;
const ERROR_BASE_MS = 5_000;
const ERROR_CAP_MS = 60_000;

export interface PollSubject {
  webhookExpected: boolean;
  /** When the platform accepted the task (or when it was created, before that). */
  startedAt: number;
  /** Polls made so far. */
  pollCount: number;
}

const jitter = (ms: number, random: () => number) => Math.round(ms * (0.8 + 0.4 * random()));

/** A fast-poll step with its jitter, kept within the spec's 5–10 s (spec 8). */
const fastDelay = (ms: number, random: () => number) =>
  Math.min(FAST_CAP_MS, Math.max(FAST_BASE_MS, jitter(ms, random)));

/** Delay until the next poll after a successful report (poll, webhook or submit). */
export function nextPollDelay(subject: PollSubject, now: number, schedule: PollSchedule): number {
  const fast = fastDelay(
    Math.min(FAST_BASE_MS * 1.25 ** subject.pollCount, FAST_CAP_MS),
    schedule.random,
  );
  if (!subject.webhookExpected) return fast;
  const overdueAt = subject.startedAt + schedule.expectedDurationMs;
  if (now >= overdueAt) return fast;
  const slow =
    SAFETY_NET_MIN_MS + Math.round((SAFETY_NET_MAX_MS - SAFETY_NET_MIN_MS) * schedule.random());
  return Math.min(slow, overdueAt - now);
}

/** Delay before the first poll of a task the platform just accepted. */
export function firstPollDelay(webhookExpected: boolean, schedule: PollSchedule): number {
  return webhookExpected ? SAFETY_NET_MIN_MS : fastDelay(FAST_BASE_MS, schedule.random);
}

/** Delay after `errors` consecutive failed polls, honouring the platform's Retry-After. */
export function errorBackoffDelay(
  errors: number,
  retryAfterMs: number | undefined,
  random: () => number,
): number {
  const backoff = jitter(
    Math.min(ERROR_BASE_MS * 2 ** Math.max(0, errors - 1), ERROR_CAP_MS),
    random,
  );
  return Math.max(backoff, retryAfterMs ?? 0);
}
