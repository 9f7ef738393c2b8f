import { i18n } from "./i18n.ts";
import { isActive } from "./snapshot.ts";
import type { Refusal, Task } from "./types.ts";

export type { Refusal } from "./types.ts";

/**
 * The refusals that still describe an account: its own, received after its secret was last
 * saved (older ones were about a secret that is gone). None when it has no secret.
 */
export function currentRefusals(
  refusals: readonly Refusal[],
  namespace: string,
  secret: { configured: boolean; updated_at: string | null },
): Refusal[] {
  if (!secret.configured) return [];
  const since = secret.updated_at ? Date.parse(secret.updated_at) : -Infinity;
  return refusals.filter((r) => r.namespace === namespace && Date.parse(r.received_at) > since);
}

/**
 * The refusal that concerns a task: one of its own deliveries, or, while it still waits for
 * callbacks, the latest of its account's (its own will be refused the same way).
 */
export function refusalFor(task: Task, refusals: readonly Refusal[]): Refusal | undefined {
  return (
    refusals.find((r) => r.task_id === task.id) ??
    (isActive(task) && task.webhook_expected
      ? refusals.find((r) => r.namespace === task.namespace)
      : undefined)
  );
}

type Cause =
  | "mismatch"
  | "formerSecret"
  | "whitespace"
  | "body"
  | "query"
  | "url"
  | "clock"
  | "header"
  | "noSecret"
  | "unreadable";

const CAUSE_TEXT: Record<Cause, () => string> = {
  mismatch: () => i18n.t("refusal.cause.mismatch"),
  formerSecret: () => i18n.t("refusal.cause.formerSecret"),
  whitespace: () => i18n.t("refusal.cause.whitespace"),
  body: () => i18n.t("refusal.cause.body"),
  query: () => i18n.t("refusal.cause.query"),
  url: () => i18n.t("refusal.cause.url"),
  clock: () => i18n.t("refusal.cause.clock"),
  header: () => i18n.t("refusal.cause.header"),
  noSecret: () => i18n.t("refusal.cause.noSecret"),
  unreadable: () => i18n.t("refusal.cause.unreadable"),
};
/** Core's diagnosis codes (`SIGNATURE_DIAGNOSIS_CODES`): a confirmed cause of a mismatch. */
const DIAGNOSES: Partial<Record<string, Cause>> = {
  FORMER_SECRET_MATCHES: "formerSecret",
  SECRET_WHITESPACE: "whitespace",
  BODY_RESERIALISED: "body",
  QUERY_UNSORTED_MATCHES: "query",
  URL_MISMATCH: "url",
};
/** Core's failure codes and the backend intake's own. */
const REASONS: Partial<Record<string, Cause>> = {
  WEBHOOK_SIGNATURE_MISMATCH: "mismatch",
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE: "clock",
  WEBHOOK_MISSING_HEADER: "header",
  WEBHOOK_MALFORMED_TIMESTAMP: "header",
  no_secret: "noSecret",
  malformed_body: "unreadable",
  task_mismatch: "unreadable",
};
/** Causes the person fixes by entering the secret again. */
const ABOUT_THE_SECRET: ReadonlySet<Cause> = new Set([
  "mismatch",
  "formerSecret",
  "whitespace",
  "noSecret",
]);

function causeOf(refusal: Refusal): Cause | undefined {
  for (const code of refusal.causes) {
    const cause = DIAGNOSES[code];
    if (cause) return cause;
  }
  return REASONS[refusal.reason];
}

/** Why deliveries are refused, in words: the diagnosed cause first, else the reason. */
export function refusalCause(refusal: Refusal): string {
  const cause = causeOf(refusal);
  return cause ? CAUSE_TEXT[cause]() : refusal.message;
}

/**
 * "Callbacks for this account are being refused: <cause>. …", and where to fix it when the
 * secret is the problem (not on the settings page, which is where).
 */
export function refusalSentence(refusal: Refusal, where: "view" | "settings" = "view"): string {
  const sentence = i18n.t("refusal.sentence", { cause: refusalCause(refusal) });
  const cause = causeOf(refusal);
  return where === "view" && cause && ABOUT_THE_SECRET.has(cause)
    ? `${sentence} ${i18n.t("refusal.fixInSettings")}`
    : sentence;
}
