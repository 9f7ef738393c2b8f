/**
 * Webhook diagnostics for a person: `diagnoseWebhook` checks one delivery rule by rule (headers,
 * timestamp, window, signature with its spec 7 causes, body) without stopping at the first
 * failure, so a request captured an hour ago still says whether its signature matches. The
 * `overture-webhooks verify` command prints it. Receivers need none of this: `verifyWebhook`
 * already names the cause of a mismatch in `diagnoses`.
 *
 * @example
 * ```ts
 * import { diagnoseWebhook } from "@overture/core/webhook/diagnose";
 *
 * const diagnosis = await diagnoseWebhook({ body, url, headers, secrets: [secret] });
 * for (const check of diagnosis.checks) console.log(check.ok ? "ok  " : "FAIL", check.rule, check.message);
 * ```
 *
 * @packageDocumentation
 */
export { diagnoseWebhook } from "./diagnose-webhook.ts";
export type { WebhookDiagnosis, WebhookRule, WebhookRuleCheck } from "./diagnose-webhook.ts";
