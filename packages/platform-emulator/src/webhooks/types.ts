import type { TimerId } from "../clock/clock.ts";

/** Why an attempt failed, as the delivery log tells it (spec 6 rule 5). */
export type AttemptFailure = "network" | "timeout" | "4xx" | "5xx" | "other_status";

export interface AttemptLog {
  attempt: number;
  trigger: "automatic" | "retry" | "manual";
  /** Emulator time of the attempt (ms). */
  at: number;
  /** The X-Sign-Timestamp sent (each attempt is signed afresh). */
  signTimestamp: string;
  outcome: "success" | AttemptFailure;
  responseStatus?: number;
  /** First 200 characters of the response body. */
  bodySummary?: string;
  error?: string;
  /** Wall milliseconds the attempt took. */
  durationMs: number;
}

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
