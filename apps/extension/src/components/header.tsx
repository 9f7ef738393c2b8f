import { i18n } from "../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { browser } from "wxt/browser";
import type { Snapshot } from "../lib/shared/snapshot.ts";
import { Avatar } from "./avatar.tsx";
import { type Connection, ConnectionStatus } from "./connection.tsx";
import { canOpenSidePanel, openSidePanel } from "../lib/views/surface.ts";

export function Header(props: {
  snapshot: Snapshot;
  connection: Connection;
  surface: "popup" | "sidepanel";
  onAccount: () => void;
}) {
  const { snapshot } = props;
  const [windowId, setWindowId] = useState<number | undefined>();
  useEffect(() => {
    if (props.surface === "popup")
      void browser.windows.getCurrent().then((w) => {
        setWindowId(w.id);
      });
  }, [props.surface]);
  const signedIn = snapshot.auth === "signed_in";
  const free = snapshot.quota?.available ?? null;
  const max = snapshot.quota?.max_concurrency ?? null;
  const queued = snapshot.quota?.queued ?? 0;
  return (
    <header class="app-header">
      <div class="brand">
        <img src="/icon/32.png" alt="" width={22} height={22} />
        <div class="brand-text">
          <h1>{i18n.t("extName")}</h1>
          <ConnectionStatus connection={props.connection} />
        </div>
      </div>
      {signedIn && free !== null && max !== null ? (
        <span class={`pill ${free > 0 ? "plain" : "warn"}`} data-testid="quota">
          {i18n.t("state.quota", { available: free, max })}
          {queued > 0 ? ` · ${i18n.t("state.queuedCount", { count: queued })}` : ""}
        </span>
      ) : null}
      {props.surface === "popup" && canOpenSidePanel() ? (
        <button
          type="button"
          class="icon"
          title={i18n.t("app.openSidePanel")}
          aria-label={i18n.t("app.openSidePanel")}
          onClick={() =>
            void openSidePanel(windowId).then(() => {
              window.close();
            })
          }
        >
          <span aria-hidden="true">◧</span>
        </button>
      ) : null}
      <button
        type="button"
        class="icon"
        title={i18n.t("app.settings")}
        aria-label={i18n.t("app.settings")}
        onClick={() => void browser.runtime.openOptionsPage()}
      >
        <span aria-hidden="true">⚙</span>
      </button>
      {signedIn && snapshot.user ? (
        <button
          type="button"
          class="icon"
          onClick={props.onAccount}
          aria-label={`${i18n.t("account.signedInAs")} ${snapshot.user.name}`}
        >
          <Avatar url={snapshot.user.avatar_url} name={snapshot.user.name} small />
        </button>
      ) : null}
    </header>
  );
}
