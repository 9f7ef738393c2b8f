import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { send } from "../../lib/shared/messages.ts";
import type { Snapshot } from "../../lib/shared/snapshot.ts";
import { errorText } from "../../lib/views/texts.ts";
import { ConfirmButton } from "../confirm-button.tsx";
import { WebhookStatus } from "./webhook-status.tsx";
import type { WebhookSecretStatus } from "../../lib/shared/types.ts";

/**
 * The webhook secret of one account (personal or an organisation). Write-only: the field is
 * emptied after saving and the secret is never read back; the status says whether live
 * callbacks are on or tasks are followed by polling only.
 */
export function WebhookSecretForm(props: { snapshot: Snapshot }) {
  const { user, selection } = props.snapshot;
  const [namespace, setNamespace] = useState(selection?.namespace ?? user?.login ?? "");
  const [secret, setSecret] = useState("");
  const [status, setStatus] = useState<WebhookSecretStatus | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    setStatus(null);
    // A problem with the last account says nothing about this one.
    setProblem(null);
    if (!namespace.trim()) return;
    send("webhook/status", { namespace: namespace.trim() })
      .then(setStatus)
      .catch((error: unknown) => {
        setProblem(errorText(error));
      });
  }, [namespace]);

  const run = (work: Promise<WebhookSecretStatus>) => {
    setProblem(null);
    work.then(setStatus).catch((error: unknown) => {
      setProblem(errorText(error));
    });
  };
  const save = (event: Event) => {
    event.preventDefault();
    if (!secret) return;
    run(
      send("webhook/set", { namespace: namespace.trim(), secret }).finally(() => {
        setSecret("");
      }),
    );
  };

  if (props.snapshot.auth !== "signed_in")
    return <p class="muted">{i18n.t("settings.webhookSignIn")}</p>;
  return (
    <form class="stack" onSubmit={save}>
      <p class="small muted" id="webhook-help">
        {i18n.t("settings.webhookHelp")}
      </p>
      <div class="field">
        <label for="webhook-ns">{i18n.t("settings.webhookAccount")}</label>
        <input
          id="webhook-ns"
          type="text"
          aria-describedby="webhook-ns-hint"
          value={namespace}
          onChange={(e) => {
            setNamespace(e.currentTarget.value);
          }}
        />
        <span class="hint small muted" id="webhook-ns-hint">
          {i18n.t("account.namespaceHint", { login: user?.login ?? "" })}
        </span>
      </div>
      {status ? <WebhookStatus namespace={namespace.trim()} status={status} /> : null}
      <div class="field">
        <label for="webhook-secret">{i18n.t("settings.webhookSecret")}</label>
        <input
          id="webhook-secret"
          type="password"
          autocomplete="off"
          value={secret}
          aria-describedby="webhook-help"
          onInput={(e) => {
            setSecret(e.currentTarget.value);
          }}
        />
      </div>
      <div class="row">
        <button type="submit" class="primary" disabled={!secret || !namespace.trim()}>
          {i18n.t("settings.webhookSave")}
        </button>
        {status?.configured ? (
          <ConfirmButton
            danger
            label={i18n.t("settings.webhookRemove")}
            question={i18n.t("settings.webhookRemoveQuestion")}
            confirmLabel={i18n.t("settings.webhookRemoveConfirm")}
            keepLabel={i18n.t("settings.webhookRemoveKeep")}
            onConfirm={() => {
              run(send("webhook/clear", { namespace: namespace.trim() }));
            }}
          />
        ) : null}
      </div>
      {problem ? (
        <p class="small" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}
