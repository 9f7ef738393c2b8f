import { hash } from "node:crypto";
import { taskErrorMessage } from "@overture/core/schemas";
import {
  readWebhookBody,
  verifyWebhookSync,
  type WebhookHeaders,
  type WebhookVerification,
} from "@overture/core/webhook";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import { sha256Hex } from "../../lib/secrets.ts";
import { costOf } from "../tasks/merge.ts";
import type { Batcher } from "./batcher.ts";
import { readCallbackEvent } from "./callback-event.ts";
import { callbackKey } from "./callback-key.ts";
import type { IntakeLookup, SecretSet, WebhookTarget } from "./lookup.ts";
import type { RejectionRecorder } from "./rejections.ts";
import {
  MALFORMED_BODY,
  NO_SECRET,
  TASK_MISMATCH,
  UNKNOWN_TASK,
} from "../../schemas/error-codes.ts";

/** What the route answers; `body` is JSON. */
export type IntakeAnswer =
  | { status: 200; body: { status: "accepted" | "duplicate" } }
  | { status: 400 | 401 | 404; body: { error: string; message: string } };

export interface Delivery {
  /** The URL the platform called, as received (its query is signed, spec 4.9). */
  url: string;
  /** Fetch `Headers` (the app's route) or Node's `req.headers` (server/webhook-edge.ts). */
  headers: WebhookHeaders;
  /** The body's bytes as received: verified as they are, decoded only afterwards (spec 4.9). */
  body: Uint8Array;
}

// Keys are 43 base64url characters; anything far longer is not worth a lookup.
const MAX_KEY_LENGTH = 128;

/**
 * The webhook hot path (DESIGN "Webhook intake"): find the task by its key, verify the signature
 * against the owner's secrets and the actual URL, parse, check the task id, then hand the event
 * to the group-commit batcher and answer once it is committed.
 */
export function createIntake(options: IntakeOptions) {
  const { lookup, batcher, metrics } = options;
  const verify = (delivery: Delivery, secrets: SecretSet, diagnose: boolean) =>
    verifyDelivery(options, delivery, secrets, diagnose);
  const refuse = (target: WebhookTarget, status: 400 | 401, ...why: RefusalReason) =>
    refuseDelivery(options, target, status, ...why);
  const unknownTask = (reason: string) => unknownTaskAnswer(options, reason);

  return {
    async handle(delivery: Delivery): Promise<IntakeAnswer> {
      const key = callbackKey(delivery.url);
      if (!key || key.length > MAX_KEY_LENGTH) return unknownTask("missing_key");
      const keyHash = sha256Hex(key);
      const target = await lookup.target(keyHash);
      if (!target) return unknownTask("unknown_key");

      const { set, cached } = await lookup.secrets(target.userId, target.namespace);
      let secrets = set;
      let result = secrets.valid.length > 0 ? verify(delivery, secrets, !cached) : undefined;
      // A cached secret may be stale (the user just entered a new one): reload once before refusing.
      if (cached && (!result || (!result.ok && result.code === "WEBHOOK_SIGNATURE_MISMATCH"))) {
        secrets = await lookup.reloadSecrets(target.userId, target.namespace);
        result = secrets.valid.length > 0 ? verify(delivery, secrets, true) : undefined;
      }
      if (!result) {
        return refuse(
          target,
          401,
          NO_SECRET,
          "Overture has no webhook secret for this account; enter the secret from the platform's console.",
        );
      }
      if (!result.ok) return refuse(target, 401, result.code, result.message, result.diagnoses);

      // Decoded only now, strictly: not UTF-8 or not JSON is the sender's error (the same bytes
      // would come back on a retry), so a 400 saying which, and nothing is applied.
      const read = readWebhookBody(delivery.body);
      if (!read.ok) return refuse(target, 400, MALFORMED_BODY, `${read.message}.`);
      const parsed = readCallbackEvent(read.json);
      if (!parsed.ok) {
        return refuse(
          target,
          400,
          MALFORMED_BODY,
          `The callback event lacks or misformats: ${parsed.fields} (spec 2.7).`,
        );
      }
      const { event } = parsed;
      if (target.platformTaskId && target.platformTaskId !== event.task_id) {
        return refuse(
          target,
          400,
          TASK_MISMATCH,
          "The event names another task than the one this callback URL belongs to.",
        );
      }

      const error = taskErrorMessage({ output: event.output ?? null });
      const outcome = await batcher.submit({
        taskId: target.taskId,
        source: "webhook",
        platformTaskId: event.task_id,
        status: event.status,
        output: event.output ?? null,
        usageInfo: event.usage_info ?? null,
        ...(error ? { error } : {}),
        webhookEvent: { eventId: event.event_id, signedAt: result.timestamp },
        ...costOf(event),
      });
      if (outcome === "task_mismatch") {
        return refuse(
          target,
          400,
          TASK_MISMATCH,
          "The event names another task than the one this callback URL belongs to.",
        );
      }
      if (outcome === "not_found") return unknownTask("task_deleted");
      lookup.adopt(keyHash, target, event.task_id);
      metrics.webhookOutcomes.inc({ outcome, reason: "" });
      return { status: 200, body: { status: outcome } };
    },
  };
}

/** What intake works with. */
export interface IntakeOptions {
  lookup: IntakeLookup;
  batcher: Batcher;
  rejections: RejectionRecorder;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
  toleranceMs: number;
}

/** Why a delivery is refused: its reason code, message and the verifier's diagnoses if any. */
type RefusalReason = [
  reason: string,
  message: string,
  diagnoses?: readonly { code: string; message: string }[],
];

// The synchronous verifier on node:crypto's one-shot hash: no promise per delivery, core builds
// the HMAC from the secret's cached pads, two native calls and no stream object.
const verifyOnce = (
  options: Pick<IntakeOptions, "now" | "toleranceMs">,
  delivery: Delivery,
  secrets: SecretSet,
  diagnose: boolean,
): WebhookVerification =>
  verifyWebhookSync({
    body: delivery.body,
    url: delivery.url,
    headers: delivery.headers,
    secrets: secrets.valid,
    formerSecrets: secrets.former,
    now: options.now,
    toleranceMs: options.toleranceMs,
    hash,
    diagnose,
  });
// The diagnosis of a mismatch re-serialises the body; a hostile one (JSON nested 100,000 deep)
// overflows the stack there. The verdict does not need the diagnosis: give it without.
function verifyDelivery(
  options: Pick<IntakeOptions, "now" | "toleranceMs">,
  delivery: Delivery,
  secrets: SecretSet,
  diagnose: boolean,
): WebhookVerification {
  try {
    return verifyOnce(options, delivery, secrets, diagnose);
  } catch (error) {
    if (!diagnose) throw error;
    return verifyOnce(options, delivery, secrets, false);
  }
}

/** Refuses a delivery to a known task: counted, logged and recorded for its owner to see. */
function refuseDelivery(
  { metrics, logger, rejections, now }: IntakeOptions,
  target: WebhookTarget,
  status: 400 | 401,
  ...[reason, message, diagnoses]: RefusalReason
): IntakeAnswer {
  metrics.webhookOutcomes.inc({ outcome: "rejected", reason });
  logger.info({ taskId: target.taskId, reason }, "webhook delivery refused");
  rejections.record({
    userId: target.userId,
    taskId: target.taskId,
    reason,
    message,
    httpStatus: status,
    receivedAt: new Date(now()),
    ...(diagnoses ? { diagnoses } : {}),
  });
  return { status, body: { error: reason.toLowerCase(), message } };
}

/** The answer to a delivery whose key names no task (404), counted and logged. */
function unknownTaskAnswer(
  { metrics, logger }: Pick<IntakeOptions, "metrics" | "logger">,
  reason: string,
): IntakeAnswer {
  metrics.webhookOutcomes.inc({ outcome: "rejected", reason });
  logger.info({ reason }, "webhook for an unknown task key");
  return {
    status: 404,
    body: { error: UNKNOWN_TASK, message: "No task is waiting for callbacks with this key." },
  };
}

export type Intake = ReturnType<typeof createIntake>;
