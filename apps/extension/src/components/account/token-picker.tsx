import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { send } from "../../lib/shared/messages.ts";
import type { Snapshot } from "../../lib/shared/snapshot.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { AccessToken } from "../../lib/shared/types.ts";

/** Namespace (personal = login, or an organisation typed in) and the access token for tasks. */
export function TokenPicker(props: { snapshot: Snapshot }) {
  const login = props.snapshot.user?.login ?? "";
  const selection = props.snapshot.selection;
  const [kind, setKind] = useState<"personal" | "organisation">(
    selection && selection.namespace !== login ? "organisation" : "personal",
  );
  const [organisation, setOrganisation] = useState(
    selection && selection.namespace !== login ? selection.namespace : "",
  );
  const [tokens, setTokens] = useState<AccessToken[] | null>(null);
  const [chosen, setChosen] = useState<number | null>(selection?.token_id ?? null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const namespace = kind === "personal" ? login : organisation.trim();

  const load = (target: string) => {
    if (!target) return;
    setProblem(null);
    setTokens(null);
    send("tokens/list", { namespace: target })
      .then(setTokens)
      .catch((error: unknown) => {
        setProblem(errorText(error));
      });
  };
  // The personal namespace's tokens are shown at once; an organisation's after it is typed.
  useEffect(() => {
    if (kind === "personal") load(login);
  }, [kind, login]);

  const use = () => {
    if (chosen === null) return;
    setBusy(true);
    send("selection/set", { namespace, token_id: chosen })
      .catch((error: unknown) => {
        setProblem(errorText(error));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  return (
    <section class="card stack" aria-labelledby="token-title">
      <h2 id="token-title">{i18n.t("account.token")}</h2>
      <p class="small" data-testid="selection">
        {selection
          ? i18n.t("account.current", {
              token: selection.token_name ?? `#${selection.token_id}`,
              namespace: selection.namespace,
            })
          : i18n.t("account.noneSelected")}
      </p>
      <fieldset class="stack" style="border:0;padding:0;margin:0">
        <legend class="small">{i18n.t("account.namespace")}</legend>
        <label class="check">
          <input
            type="radio"
            name="ns-kind"
            checked={kind === "personal"}
            onChange={() => {
              setKind("personal");
            }}
          />
          {i18n.t("account.personal", { login })}
        </label>
        <label class="check">
          <input
            type="radio"
            name="ns-kind"
            checked={kind === "organisation"}
            onChange={() => {
              setKind("organisation");
              setTokens(null);
            }}
          />
          {i18n.t("account.organisation")}
        </label>
        {kind === "organisation" ? (
          <OrganisationField
            login={login}
            value={organisation}
            onInput={setOrganisation}
            onLoad={() => {
              load(namespace);
            }}
            canLoad={namespace !== ""}
          />
        ) : null}
      </fieldset>
      {tokens?.length === 0 ? <p class="muted small">{i18n.t("account.noTokens")}</p> : null}
      {tokens && tokens.length > 0 ? (
        <TokenChoices tokens={tokens} chosen={chosen} onChoose={setChosen} />
      ) : null}
      {tokens && tokens.length > 0 ? (
        <div class="row">
          <button
            type="button"
            class="primary"
            data-testid="use-token"
            onClick={use}
            disabled={busy || chosen === null}
          >
            {i18n.t("account.useToken")}
          </button>
        </div>
      ) : null}
      {problem ? (
        <p class="small" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}

/** An organisation's name, typed, and the button that lists its tokens. */
function OrganisationField(props: {
  login: string;
  value: string;
  onInput: (value: string) => void;
  onLoad: () => void;
  canLoad: boolean;
}) {
  return (
    <>
      <div class="row">
        <label class="visually-hidden" for="org-ns">
          {i18n.t("account.organisationName")}
        </label>
        <input
          id="org-ns"
          type="text"
          aria-describedby="org-ns-hint"
          placeholder={i18n.t("account.organisationName")}
          value={props.value}
          onInput={(e) => {
            props.onInput(e.currentTarget.value);
          }}
          style="flex:1"
        />
        <button type="button" onClick={props.onLoad} disabled={!props.canLoad}>
          {i18n.t("account.loadTokens")}
        </button>
      </div>
      <p class="small muted" id="org-ns-hint">
        {i18n.t("account.namespaceHint", { login: props.login })}
      </p>
    </>
  );
}

/** The namespace's tokens as radio buttons, each with whether it is paid or a trial. */
function TokenChoices(props: {
  tokens: readonly AccessToken[];
  chosen: number | null;
  onChoose: (id: number) => void;
}) {
  return (
    <fieldset style="border:0;padding:0;margin:0">
      <legend class="visually-hidden">{i18n.t("account.token")}</legend>
      <ul class="token-list">
        {props.tokens.map((token) => (
          <li key={token.id}>
            <label>
              <input
                type="radio"
                name="token"
                checked={props.chosen === token.id}
                onChange={() => {
                  props.onChoose(token.id);
                }}
              />
              <span>{token.name}</span>
              <span class={`pill ${token.usage_scenario === "paid" ? "ok" : "warn"}`}>
                {token.usage_scenario === "paid"
                  ? i18n.t("account.paid")
                  : token.usage_scenario === "trial"
                    ? i18n.t("account.trial")
                    : token.usage_scenario}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
