import { createMiddleware } from "hono/factory";

const HTML_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * A strict CSP on HTML pages (docs, sign-in results) unless the route set its own (the share page
 * also plays media). The headers every response carries, JSON included (never framed or sniffed),
 * come with the request id (answer.ts).
 */
export function securityHeaders() {
  return createMiddleware(async function securityHeadersMiddleware(c, next) {
    await next();
    const html = c.res.headers.get("content-type")?.startsWith("text/html");
    if (html && !c.res.headers.has("content-security-policy")) {
      c.header("Content-Security-Policy", HTML_CSP);
    }
  });
}
