import { describeFetchError } from "../fetch-error.ts";

/** A delivery as the relay stream carries it (`event: delivery`). */
export interface RelayedDelivery {
  id: string;
  received_at: string;
  method: string;
  path: string;
  query: string;
  headers: [string, string][];
  body_base64: string;
}

/** Never re-sent: they describe one hop, or are recomputed for the exact body sent here. */
const NOT_FORWARDED = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "host",
  "content-length",
]);

/** The local receiver's answer, or why there was none. */
export type ForwardResult =
  | { ok: boolean; status: number; ms: number; summary: string }
  | { ok: false; error: string; ms: number };

/** The local URL of a delivery: `--forward-to` with the delivery's path suffix and its query. */
export function localUrl(forwardTo: string, delivery: Pick<RelayedDelivery, "path" | "query">) {
  const base = forwardTo.replace(/\/+$/, "");
  const path = delivery.path === "" ? (base === forwardTo ? "" : "/") : delivery.path;
  return `${base}${path}${delivery.query === "" ? "" : `?${delivery.query}`}`;
}

/**
 * Sends a relayed delivery to the developer's receiver as the platform sent it to the relay: the
 * same method, body bytes, headers and query, so a signature over timestamp, query and raw body
 * verifies unchanged. Redirects are not followed (the platform does not follow them either).
 */
export async function forward(
  fetch: typeof globalThis.fetch,
  forwardTo: string,
  delivery: RelayedDelivery,
  now: () => number,
  timeoutMs = 30_000,
): Promise<ForwardResult> {
  const url = localUrl(forwardTo, delivery);
  // The relay keeps a path suffix that starts with "/"; whatever it says, nothing leaves the
  // receiver the developer named.
  if (URL.parse(url)?.origin !== new URL(forwardTo).origin || !/^(\/|$)/.test(delivery.path))
    return { ok: false, error: "not sent: its path would leave --forward-to", ms: 0 };
  const headers = new Headers();
  for (const [name, value] of delivery.headers)
    if (!NOT_FORWARDED.has(name.toLowerCase())) headers.append(name, value);
  const started = now();
  try {
    const response = await fetch(url, {
      method: delivery.method,
      headers,
      body: Buffer.from(delivery.body_base64, "base64"),
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    // A refusal's body usually says why (core's receivers name the failed rule): its start.
    const summary = response.ok ? "" : (await response.text().catch(() => "")).slice(0, 200);
    if (response.ok) await response.body?.cancel().catch(() => undefined);
    return { ok: response.ok, status: response.status, ms: now() - started, summary };
  } catch (error) {
    return { ok: false, error: describeFetchError(error), ms: now() - started };
  }
}
