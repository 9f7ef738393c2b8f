import type { TimerId } from "../clock/clock.ts";

/** Why an attempt failed, as the delivery log tells it (spec 6 rule 5). */
export type AttemptFailure = "network" | "timeout" | "4xx" | "5xx" | "other_status";

/**
 * One attempt of a webhook delivery, as the delivery log keeps it (spec 6 rule 4): when, why
 * (automatic, retry or manual), the timestamp it was signed with, and the receiver's answer or
 * the failure. Read it from `DeliveryView.attempts` to assert how a receiver answered.
 *
 * @example
 * ```ts
 * const [delivery] = emu.control.listDeliveries({ taskId });
 * console.log(delivery?.attempts.map((a) => `${a.attempt} ${a.outcome} ${a.responseStatus}`));
 * ```
 */
export interface AttemptLog {
  /** 1 for the first attempt, counting retries and manual attempts. */
  attempt: number;
  /** The first attempt (`automatic`), a scheduled retry (`retry`) or `retryDelivery` (`manual`). */
  trigger: "automatic" | "retry" | "manual";
  /** Emulator time of the attempt (ms). */
  at: number;
  /** The X-Sign-Timestamp sent (each attempt is signed afresh). */
  signTimestamp: string;
  /** `success` on a 2xx answer, otherwise why it failed. */
  outcome: "success" | AttemptFailure;
  /** The receiver's HTTP status, when it answered. */
  responseStatus?: number;
  /** First 200 characters of the response body. */
  bodySummary?: string;
  /** The network error or timeout, when there was no answer. */
  error?: string;
  /** Wall milliseconds the attempt took. */
  durationMs: number;
}

/**
 * Where a webhook delivery stands: `scheduled` (first attempt pending), `held` (by the `reorder`
 * fault), `in_flight`, `retry_scheduled`, `succeeded`, `failed` (every retry used; a manual
 * retry may still succeed) or `dropped` (by the `drop` fault).
 *
 * @example
 * ```ts
 * const waiting = emu.control.listDeliveries({ state: "retry_scheduled" satisfies DeliveryState });
 * ```
 */
export type DeliveryState =
  "scheduled" | "held" | "in_flight" | "retry_scheduled" | "succeeded" | "failed" | "dropped";

/** One delivery record (spec 6 rule 4): an event on its way to one callback URL. */
export interface DeliveryRecord {
  id: string;
  eventId: string;
  taskId: string;
  namespace: string;
  eventStatus: string;
  /** The URL called: the `X-WebHook` value as fetch serialises it (what is signed and sent). */
  url: string;
  /** The exact body text, identical for every attempt. */
  body: string;
  createdAt: number;
  state: DeliveryState;
  attempts: AttemptLog[];
  /** Automatic retries already scheduled (at most the length of the retry schedule). */
  retriesUsed: number;
  nextAttemptAt?: number;
  /** Set on the extra copy made by the `duplicate` fault. */
  duplicateOf?: string;
  /** Secret at event time, used if the account's secret is emptied later. */
  secretAtEvent: string;
  timer?: TimerId;
}
