/**
 * Name of the header carrying the 13-digit millisecond signing time (spec 4.8).
 *
 * @example
 * ```ts
 * request.headers.get(SIGN_TIMESTAMP_HEADER); // "1767225600000"
 * ```
 */
export const SIGN_TIMESTAMP_HEADER = "X-Sign-Timestamp";

/**
 * Name of the header carrying the lowercase hex HMAC-SHA256 signature (spec 4.8).
 *
 * @example
 * ```ts
 * request.headers.get(SIGNATURE_HEADER); // 64 lowercase hex characters
 * ```
 */
export const SIGNATURE_HEADER = "X-Signature";

/**
 * The two headers the platform adds to a webhook delivery (spec 4.8), as `signWebhook` returns.
 * `X-Sign-Timestamp` is the 13-digit millisecond time, `X-Signature` the lowercase hex
 * HMAC-SHA256 of the signing text. A record type, not an interface, so it fits a Fetch
 * `HeadersInit` as it is (`new Request(url, { headers })`).
 *
 * @example
 * ```ts
 * const headers: WebhookSignatureHeaders = await signWebhook({ secret, url, body });
 * await fetch(url, { method: "POST", body, headers: { ...headers, "Content-Type": "application/json" } });
 * ```
 */
export type WebhookSignatureHeaders = Readonly<Record<"X-Sign-Timestamp" | "X-Signature", string>>;

/**
 * Request headers as a Fetch `Headers` or a plain record such as Node's `req.headers` (the
 * headers of spec 4.8). Names are matched case-insensitively either way; an array value (a
 * repeated header) is joined with `", "` as `Headers` would do. The result of `signWebhook` is
 * accepted as is.
 *
 * @example
 * ```ts
 * const fromHono: WebhookHeaders = c.req.raw.headers;
 * const fromNode: WebhookHeaders = req.headers; // IncomingHttpHeaders
 * ```
 */
export type WebhookHeaders = Headers | HeaderRecord | WebhookSignatureHeaders;

/**
 * Headers as a plain record, such as Node's `req.headers`: a repeated header is an array.
 *
 * @example
 * ```ts
 * const headers: HeaderRecord = { "x-signature": "…", "x-sign-timestamp": "1767225600000" };
 * ```
 */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Reads one header by name, case-insensitively, trimming surrounding spaces and tabs as `Headers`
 * does, so a record and a `Headers` give the same answer. `undefined` when absent. Spec 4.9
 * step 1 reads `X-Sign-Timestamp` this way.
 *
 * @example
 * ```ts
 * readHeader({ "x-signature": "ab" }, "X-Signature");          // "ab"
 * readHeader(new Headers({ "X-Signature": "ab" }), "x-signature"); // "ab"
 * ```
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (isHeaders(headers)) return headers.get(name) ?? undefined;
  // WebhookSignatureHeaders is a record too; TypeScript only lacks its index signature.
  const record = headers as HeaderRecord;
  // Node lowercases names and core asks with lowercase ones, so the first lookup answers almost
  // every call without lowercasing or scanning.
  let value = record[name];
  value ??= scanRecord(record, name.toLowerCase());
  if (value === undefined) return undefined;
  if (typeof value === "string") return trimHttpWhitespace(value);
  return value.map(trimHttpWhitespace).join(", ");
}

/** The value of the first name in `record` that lowercases to `lower`. */
function scanRecord(record: HeaderRecord, lower: string): string | readonly string[] | undefined {
  const exact = record[lower];
  if (exact !== undefined) return exact;
  for (const key of Object.keys(record)) {
    if (key.length === lower.length && key.toLowerCase() === lower) {
      const value = record[key];
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

function isHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as { get?: unknown }).get === "function";
}

/** Trims spaces and tabs at both ends, as `Headers` does with a value. */
function trimHttpWhitespace(value: string): string {
  // Values almost never have outer whitespace: two character tests spare them the regex.
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const padded = first === 0x20 || first === 0x09 || last === 0x20 || last === 0x09;
  return padded ? value.replace(/^[ \t]+|[ \t]+$/g, "") : value;
}
