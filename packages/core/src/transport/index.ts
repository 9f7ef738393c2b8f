/**
 * The transport every platform call shares (spec 4, 8): one request with its timeout, abort and
 * error mapping, and the endpoint URLs. Below both `oauth/` and `client/`, which build on it; not
 * a subpath of its own (`@overture/core/client` exports what callers use of it).
 *
 * @packageDocumentation
 */
export {
  DEFAULT_REQUEST_TIMEOUT_MS,
  isRequestTimeout,
  parseRetryAfter,
  sendPlatformRequest,
} from "./request.ts";
export type { HttpOptions, PlatformRequest } from "./request.ts";
export { bearer, endpoint } from "./urls.ts";
