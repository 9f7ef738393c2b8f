import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { browser } from "wxt/browser";
import { originPattern, parseBackendUrl } from "../../lib/shared/backend-url.ts";
import { OvertureError } from "../../lib/shared/errors.ts";
import { send } from "../../lib/shared/messages.ts";
import { backendUrl } from "../../lib/shared/storage.ts";
import { errorText } from "../../lib/views/texts.ts";

/**
 * The backend address. Saving asks for host permission first, in the click itself (browsers
 * grant optional permissions only during a user gesture), then tells the background.
 */
export function BackendUrlForm() {
  const [text, setText] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    void backendUrl().then((url) => {
      setText(url ?? "");
    });
  }, []);

  const save = (event: Event) => {
    event.preventDefault();
    const origin = parseBackendUrl(text);
    if (!origin) {
      setMessage({ ok: false, text: errorText(new OvertureError("invalid_url", "")) });
      return;
    }
    browser.permissions
      .request({ origins: [originPattern(origin)] })
      .then((granted) => {
        if (!granted) throw new OvertureError("permission_denied", origin);
        return send("settings/backend-url", { url: origin });
      })
      .then(() => {
        setText(origin);
        setMessage({ ok: true, text: i18n.t("settings.saved") });
      })
      .catch((error: unknown) => {
        setMessage({ ok: false, text: errorText(error) });
      });
  };

  return (
    <form class="stack" onSubmit={save}>
      <div class="field">
        <label for="backend-url">{i18n.t("settings.backendUrl")}</label>
        <input
          id="backend-url"
          type="url"
          value={text}
          aria-describedby="backend-help"
          onInput={(e) => {
            setText(e.currentTarget.value);
          }}
        />
        <span class="hint" id="backend-help">
          {i18n.t("settings.backendHelp")}
        </span>
      </div>
      <div class="row">
        <button type="submit" class="primary">
          {i18n.t("settings.save")}
        </button>
        {message ? (
          <span class={`small ${message.ok ? "" : "error"}`} role={message.ok ? "status" : "alert"}>
            {message.text}
          </span>
        ) : null}
      </div>
    </form>
  );
}
