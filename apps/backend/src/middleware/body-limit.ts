import { bodyLimit } from "hono/body-limit";
import { PAYLOAD_TOO_LARGE } from "../schemas/error-codes.ts";

/**
 * Largest request body of the JSON API and the sign-in endpoints: music parameters with the
 * longest lyrics (16,000 code points, at most 64 KB of UTF-8 as JSON.stringify writes them) fit
 * twice over. Without a
 * limit, `POST /auth/token` — open to anyone — would read and parse a body of any size.
 * Webhooks have their own limit (`WEBHOOK_MAX_BODY_BYTES`, read with the raw body).
 */
export const API_BODY_LIMIT_BYTES = 128 * 1024;

/** Refuses a body over `maxSize` with 413 before reading it all (declared or streamed length). */
export function apiBodyLimit(maxSize = API_BODY_LIMIT_BYTES) {
  return bodyLimit({
    maxSize,
    onError: (c) =>
      c.json(
        {
          error: PAYLOAD_TOO_LARGE,
          message: `The request body exceeds ${maxSize} bytes.`,
        },
        413,
      ),
  });
}
