import { decodeFormComponent, decodePercentComponent } from "./form-decode.ts";

/**
 * How the keys and values of a query are read before sorting (spec 4.9 leaves this open).
 *
 * - `"raw"`: byte-for-byte as they appear in the URL (`%20` stays `%20`, `+` stays `+`).
 * - `"form-decoded"`: each key and value decoded as `application/x-www-form-urlencoded`
 *   (`+` → space, then percent-decoding as UTF-8), then sorted and joined decoded, unescaped.
 * - `"percent-decoded"`: each key and value percent-decoded as UTF-8 but `+` kept as `+` (what
 *   `decodeURIComponent` does), then sorted and joined decoded, unescaped.
 *
 * All three agree unless the query contains `%` or `+`; the two decoded readings differ only
 * when it contains `+`, and the percent-decoded one differs from the raw one only when it
 * contains `%`.
 *
 * @example
 * ```ts
 * const reading: QueryReading = "form-decoded";
 * canonicalQuery("q=a+b", { reading }); // "q=a b"
 * ```
 */
export type QueryReading = "raw" | "form-decoded" | "percent-decoded";

/**
 * Options of {@link canonicalQuery} (spec 4.9, signed query string rules).
 *
 * @example
 * ```ts
 * const options: CanonicalQueryOptions = { reading: "raw" }; // the default
 * ```
 */
export interface CanonicalQueryOptions {
  /** Reading of keys and values; default `"raw"`. */
  readonly reading?: QueryReading | undefined;
}

/**
 * The raw query of a URL exactly as given: the text after the first `?` up to the first `#`,
 * or `""` when there is none. Works on the string form and never normalises, unlike
 * `new URL(url).search`, which percent-encodes some characters (spec 4.8: the callback URL's
 * query string is kept as given). A `URL` object is read through its `href`.
 *
 * @example
 * ```ts
 * queryOf("https://r.example/hook?b=2&a=1#top"); // "b=2&a=1"
 * queryOf("https://r.example/hook?");            // ""
 * queryOf("https://r.example/hook");             // ""
 * ```
 */
export function queryOf(url: string | URL): string {
  const href = typeof url === "string" ? url : url.href;
  const hash = href.indexOf("#");
  const question = href.indexOf("?");
  if (question === -1 || (hash !== -1 && hash < question)) return "";
  return hash === -1 ? href.slice(question + 1) : href.slice(question + 1, hash);
}

/**
 * The signed query string of spec 4.9 for a raw query (leading `?` optional).
 *
 * Rules: duplicates are kept (1); pairs are sorted by key (2), then by value (3), both by Unicode
 * code point, never by locale (so `B` < `a`, `a-b` < `a_b`, `Z` < `é`); a missing value is the
 * empty string (4); pairs are joined as `key=value` with `&` (5); no query gives `""` (6).
 * A pair splits on its first `=` only. Empty segments (`a=1&&b=2&`) are skipped, as the
 * `application/x-www-form-urlencoded` parser does; the spec does not cover them.
 *
 * @example
 * ```ts
 * canonicalQuery("b=2&a=3&a=1&empty");                             // "a=1&a=3&b=2&empty="
 * canonicalQuery("?q=a%20b+c", { reading: "form-decoded" });       // "q=a b c"
 * canonicalQuery("?q=a%20b+c", { reading: "percent-decoded" });    // "q=a b+c"
 * ```
 */
export function canonicalQuery(query: string, options?: CanonicalQueryOptions): string {
  const q = query.startsWith("?") ? query.slice(1) : query;
  const decode = DECODERS[options?.reading ?? "raw"];
  const pairs: [string, string][] = [];
  for (const segment of q.split("&")) {
    if (segment === "") continue;
    const eq = segment.indexOf("=");
    const key = eq === -1 ? segment : segment.slice(0, eq);
    const value = eq === -1 ? "" : segment.slice(eq + 1);
    pairs.push([decode(key), decode(value)]);
  }
  pairs.sort((a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]));
  return pairs.map(([key, value]) => key + "=" + value).join("&");
}

const DECODERS: Record<QueryReading, (text: string) => string> = {
  raw: (text) => text,
  "form-decoded": decodeFormComponent,
  "percent-decoded": decodePercentComponent,
};

/**
 * Compares two strings by Unicode code point (the order of their UTF-8 bytes), not by UTF-16 code
 * unit as `<` and `Array.prototype.sort` do, and never by locale: the "ascending" of spec 4.9
 * rules 2-3. The two orders differ only when a supplementary character (a surrogate pair) meets a
 * character in U+E000–U+FFFF.
 *
 * @example
 * ```ts
 * ["😀", "｡"].sort(compareCodePoints); // ["｡", "😀"]: U+FF61 < U+1F600
 * ```
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Move surrogates (D800–DFFF) above E000–FFFF so code-unit order becomes code-point order.
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
