import { i18n } from "../../lib/shared/i18n.ts";
import { BackendUrlForm } from "../../components/settings/backend-url-form.tsx";
import { PreferencesForm, ShortcutNote } from "../../components/settings/preferences-form.tsx";
import { RedirectUrlList } from "../../components/settings/redirect-urls.tsx";
import { WebhookSecretForm } from "../../components/settings/webhook-secret-form.tsx";
import { useSnapshot } from "../../lib/views/hooks.ts";

export function OptionsApp() {
  const { snapshot } = useSnapshot();
  return (
    <main class="page">
      <h1>{i18n.t("settings.title")}</h1>
      <section class="card" aria-labelledby="backend-title">
        <h2 id="backend-title">{i18n.t("settings.backend")}</h2>
        <BackendUrlForm />
      </section>
      <section class="card" aria-labelledby="redirect-title">
        <h2 id="redirect-title">{i18n.t("settings.redirects")}</h2>
        <p class="small muted">{i18n.t("settings.redirectsHelp")}</p>
        <RedirectUrlList />
      </section>
      <section class="card" aria-labelledby="webhook-title">
        <h2 id="webhook-title">{i18n.t("settings.webhook")}</h2>
        {snapshot ? <WebhookSecretForm snapshot={snapshot} /> : null}
      </section>
      <section class="card" aria-labelledby="preferences-title">
        <h2 id="preferences-title">{i18n.t("settings.preferences")}</h2>
        <PreferencesForm />
        <ShortcutNote />
      </section>
      <section class="card" aria-labelledby="privacy-title">
        <h2 id="privacy-title">{i18n.t("settings.privacy")}</h2>
        <p>
          <a href="/privacy.html" target="_blank" data-testid="privacy-link">
            {i18n.t("settings.privacyLink")}
          </a>
        </p>
      </section>
    </main>
  );
}
