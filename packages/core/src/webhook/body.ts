import { WEBHOOK_BODY_NOT_JSON, WEBHOOK_BODY_NOT_UTF8, type WebhookBodyCode } from "./codes.ts";

/**
 * A webhook body as received (spec 4.9 step 3): the raw bytes, as a `Uint8Array` (Node's
 * `Buffer` is one) or an `ArrayBuffer`, or text the caller already decoded. Bytes are signed and
 * verified exactly as they are; text is signed as its UTF-8 bytes, which equal the bytes received
 * only if decoding changed nothing (a decoder drops a leading byte-order mark by default and
 * replaces invalid UTF-8): pass the bytes when you have them.
 *
 * @example
 * ```ts
 * const body: WebhookBody = new Uint8Array(await request.arrayBuffer());
 * ```
 */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

const encoder = new TextEncoder();

/** The body as text or a byte view, never an `ArrayBuffer`. */
export function bodyView(body: WebhookBody): string | Uint8Array {
  // Not `instanceof ArrayBuffer`, which fails for a buffer from another realm (a worker, a vm).
  return typeof body === "string" || ArrayBuffer.isView(body) ? body : new Uint8Array(body);
}

/**
 * The message an HMAC signs (spec 4.9 step 4): timestamp, LF, signed query string, LF, raw
 * body; a string for a text body, the exact bytes for a byte body.
 */
export function signingMessage(
  timestamp: string,
  canonical: string,
  body: string | Uint8Array,
): string | Uint8Array {
  const head = timestamp + "\n" + canonical + "\n";
  if (typeof body === "string") return head + body;
  const headBytes = encoder.encode(head);
  const message = new Uint8Array(headBytes.length + body.length);
  message.set(headBytes);
  message.set(body, headBytes.length);
  return message;
}

/**
 * A verified body read as the JSON event: its text and the parsed value, or why it cannot be
 * read.
 *
 * @example
 * ```ts
 * const reading: WebhookBodyReading = readWebhookBody(rawBody);
 * ```
 */
export type WebhookBodyReading =
  | { readonly ok: true; readonly text: string; readonly json: unknown }
  | { readonly ok: false; readonly code: WebhookBodyCode; readonly message: string };

/**
 * Reads a body after its signature was verified: strict UTF-8 decoding (a leading byte-order
 * mark is dropped, as UTF-8 decoders and RFC 8259 allow; an invalid sequence is
 * `WEBHOOK_BODY_NOT_UTF8`, never replaced), then `JSON.parse` (`WEBHOOK_BODY_NOT_JSON`). Both
 * mean the sender built a bad body: answer 400, a retry would send the same bytes. Never throws.
 *
 * @example
 * ```ts
 * const body = new Uint8Array(await request.arrayBuffer());
 * const result = await verifyWebhook({ body, url: request.url, headers: request.headers, secrets });
 * if (!result.ok) return new Response(result.message, { status: 401 });
 * const event = readWebhookBody(body);
 * if (!event.ok) return new Response(event.message, { status: 400 });
 * ```
 */
export function readWebhookBody(body: WebhookBody): WebhookBodyReading {
  const view = bodyView(body);
  let text: string;
  if (typeof view === "string") {
    text = view.startsWith("\uFEFF") ? view.slice(1) : view;
  } else {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(view);
    } catch {
      return {
        ok: false,
        code: WEBHOOK_BODY_NOT_UTF8,
        message:
          "The body is correctly signed but is not valid UTF-8, so it is not the JSON event of spec 2.7",
      };
    }
  }
  try {
    return { ok: true, text, json: JSON.parse(text) as unknown };
  } catch {
    // JSON.parse's own message quotes the body; a message that reaches logs does not.
    return {
      ok: false,
      code: WEBHOOK_BODY_NOT_JSON,
      message: "The body is correctly signed UTF-8 but not JSON (spec 4.8: application/json)",
    };
  }
}
