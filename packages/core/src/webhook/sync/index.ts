/**
 * The synchronous fast path of webhook verification, for servers with `node:crypto` (or a
 * runtime with the same shape): `verifyWebhookSync` gives `verifyWebhook`'s outcome without a
 * promise, and with node:crypto's one-shot `hash` core builds the HMAC itself, the fastest way to
 * verify (spec 4.9 steps 4-5). Everything here is injected, never imported: core stays Web-only.
 * The receivers of `@overture/core/receiver` use it when given `hash`.
 *
 * @example
 * ```ts
 * import { hash } from "node:crypto";
 * import { verifyWebhookSync } from "@overture/core/webhook/sync";
 *
 * const result = verifyWebhookSync({ body, url: req.url, headers: req.headers, secrets, hash });
 * ```
 *
 * @packageDocumentation
 */
export { verifyWebhookSync } from "./verify-sync.ts";
export type { VerifyWebhookSyncInput } from "./verify-sync.ts";
export { hmacSha256HexFromHash } from "./one-shot-hash.ts";
export type { HashSha256 } from "./one-shot-hash.ts";
export { hmacSha256HexFrom } from "./create-hmac.ts";
export type { CreateHmac, HmacStream } from "./create-hmac.ts";
export type { HmacSha256HexSync } from "../hmac.ts";
export { constantTimeEqualHex } from "../compare.ts";
