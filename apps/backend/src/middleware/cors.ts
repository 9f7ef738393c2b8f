import { OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";
import { ORIGIN_NOT_ALLOWED } from "../schemas/error-codes.ts";

// Every method of the routes below (PATCH: rename and favourite); a test reads them from the
// OpenAPI document, so a route with a new method fails it until it is listed here.
const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
const ALLOWED_HEADERS = "Authorization, Content-Type, Last-Event-ID, X-Request-Id";
const EXPOSED_HEADERS = "Retry-After, X-Request-Id";

/**
 * CORS for the extension's own origins only (`EXTENSION_ORIGINS`). Any other origin gets no CORS
 * header at all, and its preflight is refused. No credentials mode: the extension sends its
 * session as a bearer header, never a cookie. (Extension background scripts with host
 * permissions often bypass CORS; pages and Firefox's stricter modes do not.)
 */
export function extensionCors(origins: readonly string[]) {
  const allowed = new Set(origins);
  return createMiddleware<AppEnv>(async function extensionCorsMiddleware(c, next) {
    const origin = c.req.header("origin");
    const ok = origin !== undefined && allowed.has(origin);
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
      c.header("Vary", "Origin");
      if (!ok)
        return c.json(
          { error: ORIGIN_NOT_ALLOWED, message: "This origin may not call the Overture API." },
          403,
        );
      c.header("Access-Control-Allow-Origin", origin);
      c.header("Access-Control-Allow-Methods", ALLOWED_METHODS);
      c.header("Access-Control-Allow-Headers", ALLOWED_HEADERS);
      c.header("Access-Control-Max-Age", "600");
      return c.body(null, 204);
    }
    await next();
    c.header("Vary", "Origin", { append: true });
    if (ok) {
      c.header("Access-Control-Allow-Origin", origin);
      c.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
  });
}

/**
 * The CORS middleware mounted on every path the extension calls from a page context: `/api/*`
 * (including routes registered after it), the two session endpoints of sign-in, and media links:
 * the extension's `<audio crossorigin>` loads those in CORS mode, because a plain (no-cors) load
 * from its chrome-extension:// or moz-extension:// page is cross-site and the media answer's
 * `Cross-Origin-Resource-Policy: same-site` refuses it. That policy stays: a media link is for
 * the extension, not for embedding in other sites (the public share page plays its audio from
 * its own origin, which same-site allows).
 */
export function extensionCorsRoutes(origins: readonly string[]) {
  const cors = extensionCors(origins);
  const router = new OpenAPIHono<AppEnv>();
  for (const path of ["/api/*", "/auth/token", "/auth/logout", "/media/*"]) router.use(path, cors);
  return router;
}
