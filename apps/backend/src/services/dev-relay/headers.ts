/**
 * Which request headers a relayed delivery keeps. The developer's receiver must see what the
 * platform sent (Content-Type, X-Sign-Timestamp, X-Signature, User-Agent…), and nothing that
 * describes only one hop (RFC 9110 §7.6.1) or this backend's proxies: those would steer the
 * local request (a `Transfer-Encoding` or `Content-Length` that does not match the body it is
 * sent with, an `Upgrade`) or tell the receiver about the relay instead of the sender.
 */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Set by the request's way here, not by its sender: recomputed or meaningless on the laptop. */
const PER_HOP = new Set([
  "host",
  "content-length",
  "forwarded",
  "via",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-forwarded-prefix",
  "x-real-ip",
  "x-request-id",
  "cf-connecting-ip",
  "true-client-ip",
]);

/** More than this many headers, or this many bytes of them, and the delivery is refused. */
export const MAX_RELAYED_HEADERS = 100;
export const MAX_RELAYED_HEADER_BYTES = 16 * 1024;

/**
 * The headers to relay, as name/value pairs in the order `Headers` gives them (sorted by name);
 * null when there are too many. Names listed in `Connection` are hop-by-hop too.
 */
export function relayedHeaders(headers: Headers): [string, string][] | null {
  const named = new Set(
    (headers.get("connection") ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ""),
  );
  const kept: [string, string][] = [];
  let bytes = 0;
  // `Headers` joins a repeated field's values with ", " (Set-Cookie excepted), as HTTP allows.
  headers.forEach((value, name) => {
    if (HOP_BY_HOP.has(name) || PER_HOP.has(name) || named.has(name)) return;
    kept.push([name, value]);
    bytes += name.length + value.length;
  });
  return kept.length > MAX_RELAYED_HEADERS || bytes > MAX_RELAYED_HEADER_BYTES ? null : kept;
}

/** Bytes a delivery takes in the buffer: its body and its headers. */
export function deliverySize(body: Uint8Array, headers: readonly [string, string][]): number {
  let size = body.byteLength;
  for (const [name, value] of headers) size += name.length + value.length;
  return size;
}
