import { createHmac } from "node:crypto";

/**
 * An independent reading of spec 4.9, written for the tests only (not core's code): split on
 * `&`, key/value on the first `=`, missing value = "", keep duplicates, sort by key then value by
 * code unit, join `key=value` with `&`.
 */
export function referenceCanonicalQuery(query: string): string {
  if (query === "") return "";
  const pairs = query
    .split("&")
    .filter((p) => p !== "")
    .map<[string, string]>((p) => {
      const eq = p.indexOf("=");
      return eq === -1 ? [p, ""] : [p.slice(0, eq), p.slice(eq + 1)];
    });
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  pairs.sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]));
  return pairs.map(([k, v]) => `${k}=${v}`).join("&");
}

/** HMAC-SHA256 hex of `timestamp LF canonical LF body` (spec 4.9 steps 4–5). */
export function referenceSignature(
  secret: string,
  timestamp: string,
  canonical: string,
  body: string,
): string {
  return createHmac("sha256", secret).update(`${timestamp}\n${canonical}\n${body}`).digest("hex");
}

/** The raw query of a URL as given (text after the first `?`, before `#`). */
export function rawQuery(url: string): string {
  const q = url.indexOf("?");
  if (q === -1) return "";
  const hash = url.indexOf("#", q);
  return url.slice(q + 1, hash === -1 ? undefined : hash);
}
