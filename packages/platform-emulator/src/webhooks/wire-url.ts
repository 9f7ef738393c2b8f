/**
 * The callback URL exactly as `fetch` puts it on the wire. Node's fetch (undici) parses the URL
 * with the WHATWG parser and sends `pathname + search` of the result, which percent-encodes
 * characters of the query (`'`, space, `"`, `<`, `>`, non-ASCII) while leaving `+`, `~` and existing
 * `%xx` alone. Serialising once here gives the URL whose query the receiver sees; serialising is
 * idempotent, so fetching this string sends it unchanged (issue 11 item 5: sign what is sent).
 */
export function wireUrl(url: string): string {
  return new URL(url).href;
}

/**
 * An `X-WebHook` header value as text. HTTP header values arrive as bytes, which Node hands over
 * one byte per character (latin1); a client that put a non-ASCII URL in the header sent its UTF-8
 * bytes, so those are decoded as UTF-8. A value that is not valid UTF-8 is kept as it came.
 */
export function headerText(value: string): string {
  const codes = Array.from(value, (c) => c.charCodeAt(0));
  if (!codes.some((n) => n >= 0x80) || codes.some((n) => n > 0xff)) return value;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(codes));
  } catch {
    return value;
  }
}
