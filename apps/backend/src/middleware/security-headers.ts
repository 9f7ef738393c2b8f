import { createMiddleware } from "hono/factory";
import { withHeaders, type HeaderList } from "./early-headers.ts";

/** Set on every response (the webhook edge, server/webhook-edge.ts, sets them too). */
export const EVERY_RESPONSE: HeaderList = [
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Referrer-Policy", "no-referrer"],
  ["Cross-Origin-Resource-Policy", "same-site"],
];
const HTML_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Conservative headers on every response. HTML pages (docs, sign-in results) get a strict CSP
 * unless the route set its own (the share page also plays media); JSON responses are never
 * framed or sniffed either.
 */
export function securityHeaders() {
  return createMiddleware(async function securityHeadersMiddleware(c, next) {
    await withHeaders(c, EVERY_RESPONSE, next);
    const html = c.res.headers.get("content-type")?.startsWith("text/html");
    if (html && !c.res.headers.has("content-security-policy")) {
      c.header("Content-Security-Policy", HTML_CSP);
    }
  });
}
