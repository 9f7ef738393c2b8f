/**
 * The callback key of a delivery: the first `k` of its URL's query, as `URLSearchParams` reads
 * it, without building a URL for every delivery. A query with escapes (`%`, `+`) is handed to
 * `URLSearchParams` itself; the platform's keys (base64url) need neither.
 */
export function callbackKey(url: string): string | null {
  const start = url.indexOf("?");
  if (start < 0) return null;
  const hash = url.indexOf("#", start);
  const query = hash < 0 ? url.slice(start + 1) : url.slice(start + 1, hash);
  if (query.includes("%") || query.includes("+")) return new URLSearchParams(query).get("k");
  for (const pair of query.split("&")) {
    if (pair === "k") return "";
    if (pair.startsWith("k=")) return pair.slice(2);
  }
  return null;
}
