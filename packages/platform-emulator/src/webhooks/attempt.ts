import { signWebhook } from "@overture/core/webhook";
import type { QueryReading } from "../options.ts";
import type { AttemptFailure, AttemptLog } from "./types.ts";
import { wireUrl } from "./wire-url.ts";

export interface AttemptInput {
  url: string;
  body: string;
  secret: string;
  timestamp: number;
  reading: QueryReading;
  timeoutMs: number;
  fetch: typeof fetch;
  /** Aborted by reset/close. */
  signal: AbortSignal;
}

export type AttemptResult = Omit<AttemptLog, "attempt" | "trigger" | "at">;

/**
 * One POST of a callback (spec 4.8): signed per 4.9 over the query of the URL actually requested,
 * with a fresh timestamp, no redirects followed,
 * success only on 2xx within the timeout. Failures are classified for the delivery log.
 */
export async function attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
  // Sign and send the same string: the URL as fetch serialises it, not as it was given.
  const url = wireUrl(input.url);
  const headers = await signWebhook({
    secret: input.secret,
    url,
    body: input.body,
    timestamp: input.timestamp,
    reading: input.reading,
  });
  const signTimestamp = headers["X-Sign-Timestamp"];
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const response = await input.fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: input.body,
      redirect: "manual",
      signal: AbortSignal.any([timeout, input.signal]),
    });
    const bodySummary = await summary(response);
    const s = response.status;
    const outcome: AttemptResult["outcome"] =
      s >= 200 && s < 300
        ? "success"
        : s >= 400 && s < 500
          ? "4xx"
          : s >= 500
            ? "5xx"
            : "other_status";
    return { signTimestamp, outcome, responseStatus: s, bodySummary, durationMs: took() };
  } catch (error) {
    const kind: AttemptFailure = timeout.aborted ? "timeout" : "network";
    const message = timeout.aborted ? `no response within ${input.timeoutMs} ms` : describe(error);
    return { signTimestamp, outcome: kind, error: message, durationMs: took() };
  }
}

/** The first 200 characters of the body, reading at most a few KB of it. */
async function summary(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < 200) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text.slice(0, 200);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause?.code ? `${error.message}: ${cause.code}` : error.message;
}
