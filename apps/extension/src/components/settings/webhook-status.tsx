import { i18n, uiLanguage } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { send } from "../../lib/shared/messages.ts";
import { type Refusal, refusalSentence } from "../../lib/shared/refusals.ts";
import type { WebhookSecretStatus } from "../../lib/shared/types.ts";

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(uiLanguage()) : "");

/**
 * Whether an account's callbacks work: no secret (polling only), a secret and no refusal since it
 * was saved (live callbacks on), or a secret the platform's deliveries do not match (refused, with
 * the diagnosed cause and how many since the secret was saved).
 */
export function WebhookStatus(props: { namespace: string; status: WebhookSecretStatus }) {
  const { status } = props;
  // null while the recent deliveries are being checked: "on" is not said before that is known.
  const [refusals, setRefusals] = useState<Refusal[] | null>(null);
  useEffect(() => {
    setRefusals(null);
    if (!status.configured) return;
    send("webhook/refusals", { namespace: props.namespace })
      .then(setRefusals)
      // Unknown refusals leave the status as it was read: they only refine it.
      .catch(() => {
        setRefusals([]);
      });
  }, [status, props.namespace]);
  const refused = refusals?.[0];
  const tone = refused ? "bad" : status.configured && refusals ? "ok" : "warn";

  return (
    <div class={`banner ${tone}`} role="status" data-testid="webhook-status">
      <p>
        {refused
          ? refusalSentence(refused, "settings")
          : !status.configured
            ? i18n.t("settings.webhookMissing")
            : refusals === null
              ? i18n.t("settings.webhookChecking", { date: date(status.updated_at) })
              : i18n.t("settings.webhookConfigured", { date: date(status.updated_at) })}
      </p>
      {refused ? (
        <p class="small">
          {i18n.t("refusal.since", { count: refusals.length, date: date(refused.received_at) })}
        </p>
      ) : null}
      {status.previous_valid_until ? (
        <p class="small">
          {i18n.t("settings.webhookPrevious", { date: date(status.previous_valid_until) })}
        </p>
      ) : null}
    </div>
  );
}
