import { readWebhookBody } from "../body.ts";
import { DEFAULT_WEBHOOK_TOLERANCE_MS } from "../checks.ts";
import type { SignatureDiagnosis, WebhookBodyCode, WebhookFailureCode } from "../codes.ts";
import { parseTimestamp13 } from "../compare.ts";
import { SIGNATURE_HEADER, SIGN_TIMESTAMP_HEADER, readHeader } from "../headers.ts";
import type { VerifyWebhookInput, WebhookVerification } from "../types.ts";
import { verifyWebhook } from "../verify.ts";

/**
 * The rules a delivery must pass, in the order they are checked (spec 4.8, 4.9, 5.7, 2.7).
 *
 * @example
 * ```ts
 * const rule: WebhookRule = "window";
 * ```
 */
export type WebhookRule = "headers" | "timestamp" | "window" | "signature" | "body";

/**
 * One rule's outcome; `code` names a failure by the code `verifyWebhook` or `readWebhookBody`
 * would give it.
 *
 * @example
 * ```ts
 * for (const check of diagnosis.checks) console.log(check.ok ? "ok  " : "FAIL", check.rule, check.message);
 * ```
 */
export interface WebhookRuleCheck {
  readonly rule: WebhookRule;
  readonly ok: boolean;
  readonly message: string;
  readonly code?: WebhookFailureCode | WebhookBodyCode;
  /** `signature`: the causes of a mismatch that could be confirmed. */
  readonly diagnoses?: readonly SignatureDiagnosis[];
}

/**
 * Every rule's outcome for one delivery, and the verdict `verifyWebhook` gives it.
 *
 * @example
 * ```ts
 * const { ok, checks, verification }: WebhookDiagnosis = await diagnoseWebhook(captured);
 * ```
 */
export interface WebhookDiagnosis {
  /** Every rule passed: the delivery is valid and its body is a JSON event. */
  readonly ok: boolean;
  readonly checks: readonly WebhookRuleCheck[];
  readonly verification: WebhookVerification;
}

/**
 * Checks a delivery rule by rule and reports each, for a person looking at a captured request
 * (the `overture-webhooks verify` command uses it): headers, timestamp shape, timestamp window,
 * signature (with the spec 7 causes of a mismatch), then whether the body reads as JSON. Unlike
 * `verifyWebhook` it does not stop at the first failure: a request captured an hour ago fails
 * the window but still says whether its signature matches. Takes what `verifyWebhook` takes,
 * body as bytes or text; never reports a secret.
 *
 * @example
 * ```ts
 * const diagnosis = await diagnoseWebhook({ body, url, headers, secrets: [secret] });
 * for (const check of diagnosis.checks) console.log(check.rule, check.ok, check.message);
 * ```
 */
export async function diagnoseWebhook(input: VerifyWebhookInput): Promise<WebhookDiagnosis> {
  const verification = await verifyWebhook(input);
  const checks: WebhookRuleCheck[] = [];
  const finish = () => ({ ok: checks.every((c) => c.ok), checks, verification });

  const timestamp = readHeader(input.headers, SIGN_TIMESTAMP_HEADER);
  const signature = readHeader(input.headers, SIGNATURE_HEADER);
  if (!timestamp || !signature) {
    checks.push(failed("headers", verification, "missing or empty header"));
    return finish();
  }
  checks.push({
    rule: "headers",
    ok: true,
    message: `${SIGN_TIMESTAMP_HEADER} and ${SIGNATURE_HEADER} present`,
  });

  const time = parseTimestamp13(timestamp);
  if (time === -1) {
    checks.push(failed("timestamp", verification, "malformed timestamp"));
    return finish();
  }
  checks.push({
    rule: "timestamp",
    ok: true,
    message: `${SIGN_TIMESTAMP_HEADER} is 13 digits: ${new Date(time).toISOString()}`,
  });

  const tolerance = input.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS;
  const skew = time - (input.now ?? Date.now)();
  if (Math.abs(skew) <= tolerance) {
    checks.push({
      rule: "window",
      ok: true,
      message: `${Math.abs(skew)} ms ${skew < 0 ? "old" : "ahead"}, within the tolerance of ${tolerance} ms`,
    });
  } else {
    checks.push(
      failed("window", verification, `${Math.abs(skew)} ms ${skew < 0 ? "old" : "in the future"}`),
    );
  }

  // The signature on its own: the same verification with the window left out.
  const unwindowed =
    verification.ok || verification.code === "WEBHOOK_TIMESTAMP_OUT_OF_RANGE"
      ? await verifyWebhook({ ...input, toleranceMs: Infinity })
      : verification;
  if (unwindowed.ok) {
    const secret = `secrets[${unwindowed.secretIndex}]`;
    checks.push({
      rule: "signature",
      ok: true,
      message: `matches ${secret}, ${unwindowed.reading} query reading`,
    });
    const body = readWebhookBody(input.body);
    checks.push(
      body.ok
        ? { rule: "body", ok: true, message: "UTF-8 JSON" }
        : { rule: "body", ok: false, code: body.code, message: body.message },
    );
  } else {
    checks.push({
      rule: "signature",
      ok: false,
      code: unwindowed.code,
      message: unwindowed.message,
      ...(unwindowed.diagnoses ? { diagnoses: unwindowed.diagnoses } : {}),
    });
  }
  return finish();
}

/** A failed rule, with the verdict's code and message when the verdict is about this rule. */
function failed(
  rule: WebhookRule,
  verification: WebhookVerification,
  fallback: string,
): WebhookRuleCheck {
  if (verification.ok) return { rule, ok: false, message: fallback };
  return { rule, ok: false, code: verification.code, message: verification.message };
}
