import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { browser } from "wxt/browser";
import { originPattern, parseBackendUrl } from "../../lib/shared/backend-url.ts";
import { OvertureError } from "../../lib/shared/errors.ts";
import { send } from "../../lib/shared/messages.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { BackendReadiness } from "../../lib/shared/types.ts";

/** This browser's values the backend must allow: its sign-in redirect URL and its origin. */
export function allowList(): { redirect: string; origin: string } {
  return { redirect: browser.identity.getRedirectURL(), origin: location.origin };
}

/** The backend's settings that allow this browser, ready to paste into its environment. */
export function allowListText(values: { redirect: string; origin: string }): string {
  return `EXTENSION_REDIRECT_URLS=${values.redirect}\nEXTENSION_ORIGINS=${values.origin}\n`;
}

type Outcome =
  | { kind: "idle" }
  | { kind: "busy" }
  | { kind: "checked"; origin: string; readiness: BackendReadiness }
  | { kind: "failed"; text: string };

/**
 * First run of a store build: the backend's address, a connection test (`/readyz`, after the
 * host permission is granted in the click itself), then the exact values the backend must
 * allow for this browser, with a copy button. Continue saves the address.
 */
export function BackendSetup() {
  const [text, setText] = useState("");
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" });
  const [copied, setCopied] = useState(false);
  const [saving, setSaving] = useState(false);
  const [values, setValues] = useState<{ redirect: string; origin: string } | null>(null);
  useEffect(() => {
    setValues(allowList());
  }, []);

  const test = (event: Event) => {
    event.preventDefault();
    const origin = parseBackendUrl(text);
    if (!origin) {
      setOutcome({ kind: "failed", text: errorText(new OvertureError("invalid_url", "")) });
      return;
    }
    setOutcome({ kind: "busy" });
    // Requested before any await: browsers grant optional permissions only in a user gesture.
    browser.permissions
      .request({ origins: [originPattern(origin)] })
      .then((granted) => {
        if (!granted) throw new OvertureError("permission_denied", origin);
        return send("backend/check", { url: origin });
      })
      .then((readiness) => {
        setOutcome({ kind: "checked", origin, readiness });
      })
      .catch((error: unknown) => {
        const notOverture = error instanceof OvertureError && error.code === "not_found";
        setOutcome({
          kind: "failed",
          text: notOverture ? i18n.t("setup.notOverture", { url: origin }) : errorText(error),
        });
      });
  };

  const save = () => {
    if (outcome.kind !== "checked") return;
    setSaving(true);
    send("settings/backend-url", { url: outcome.origin }).catch((error: unknown) => {
      setSaving(false);
      setOutcome({ kind: "failed", text: errorText(error) });
    });
  };

  const copy = () => {
    if (!values) return;
    void navigator.clipboard.writeText(allowListText(values)).then(() => {
      setCopied(true);
    });
  };

  return (
    <section class="state stack" aria-labelledby="setup-title" data-screen="setup">
      <h1 id="setup-title">{i18n.t("setup.title")}</h1>
      <p>{i18n.t("setup.body")}</p>
      <form class="stack" onSubmit={test}>
        <div class="field">
          <label for="setup-url">{i18n.t("setup.address")}</label>
          <input
            id="setup-url"
            type="url"
            required
            placeholder={i18n.t("setup.placeholder")}
            value={text}
            onInput={(e) => {
              setText(e.currentTarget.value);
              setOutcome({ kind: "idle" });
            }}
          />
        </div>
        <div class="row">
          <button type="submit" disabled={outcome.kind === "busy"}>
            {i18n.t("setup.test")}
          </button>
        </div>
      </form>
      {outcome.kind === "failed" ? (
        <p class="banner bad" role="alert">
          {outcome.text}
        </p>
      ) : null}
      {outcome.kind === "checked" ? (
        <p
          class={`banner ${outcome.readiness.status === "ready" ? "ok" : "warn"}`}
          role="status"
          data-testid="setup-result"
        >
          {outcome.readiness.status === "ready"
            ? i18n.t("setup.ready", { url: outcome.origin })
            : i18n.t("setup.notReady", { url: outcome.origin })}
        </p>
      ) : null}
      {values ? (
        <div class="card stack allow" data-testid="allow-list">
          <h2>{i18n.t("setup.allowTitle")}</h2>
          <p class="small muted">{i18n.t("setup.allowHelp")}</p>
          <dl class="allow-list">
            <dt>{i18n.t("setup.redirect")}</dt>
            <dd>
              <code data-testid="allow-redirect">{values.redirect}</code>
            </dd>
            <dt>{i18n.t("setup.origin")}</dt>
            <dd>
              <code data-testid="allow-origin">{values.origin}</code>
            </dd>
          </dl>
          <div class="row">
            <button type="button" onClick={copy}>
              {i18n.t("setup.copy")}
            </button>
            <span class="small muted" role="status">
              {copied ? i18n.t("setup.copied") : ""}
            </span>
          </div>
        </div>
      ) : null}
      {outcome.kind === "checked" ? (
        <div class="row">
          <button type="button" class="primary" onClick={save} disabled={saving}>
            {i18n.t("setup.continue")}
          </button>
        </div>
      ) : null}
    </section>
  );
}
