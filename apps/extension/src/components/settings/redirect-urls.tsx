import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { browser } from "wxt/browser";
import { type RedirectUrls, redirectUrls } from "../../lib/views/redirect-urls.ts";

/** The exact redirect URLs the backend must allow, for Chrome and for Firefox. */
export function RedirectUrlList() {
  const [urls, setUrls] = useState<RedirectUrls | null>(null);
  useEffect(() => void redirectUrls(() => browser.identity.getRedirectURL()).then(setUrls), []);
  if (!urls) return null;
  const item = (name: "chrome" | "firefox", label: string) =>
    urls[name] === null ? null : (
      <li>
        <strong>{label}</strong>
        {urls.current === name ? (
          <span class="muted small"> ({i18n.t("settings.thisBrowser")})</span>
        ) : null}
        <br />
        <code data-testid={`redirect-${name}`}>{urls[name]}</code>
      </li>
    );
  return (
    <ul class="stack" style="list-style:none;padding:0;margin:0">
      {item("chrome", "Chrome")}
      {item("firefox", "Firefox")}
    </ul>
  );
}
