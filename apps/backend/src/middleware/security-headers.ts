import { createMiddleware } from "hono/factory";

/**
 * Conservative headers on every response. HTML pages (docs, sign-in results) get a strict CSP;
 * JSON responses are never framed or sniffed either.
 */
export function securityHeaders() {
  return createMiddleware(async function securityHeadersMiddleware(c, next) {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("X-Frame-Options", "DENY");
    c.header("Referrer-Policy", "no-referrer");
    c.header("Cross-Origin-Resource-Policy", "same-site");
    if (c.res.headers.get("content-type")?.startsWith("text/html")) {
      c.header(
        "Content-Security-Policy",
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
    }
  });
}
