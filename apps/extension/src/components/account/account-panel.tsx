import { i18n } from "#i18n";
import { send } from "../../lib/messages.ts";
import type { Snapshot } from "../../lib/snapshot.ts";
import { Avatar } from "../avatar.tsx";
import { Devices } from "./devices.tsx";
import { TokenPicker } from "./token-picker.tsx";

export function AccountPanel(props: { snapshot: Snapshot }) {
  const { user, webhookConfigured } = props.snapshot;
  return (
    <div class="stack">
      {user ? (
        <section class="card user" aria-label={i18n.t("account.signedInAs")} data-testid="user">
          <Avatar url={user.avatar_url} name={user.name} />
          <div style="flex:1">
            <strong>{user.name}</strong>
            <div class="small muted">@{user.login}</div>
          </div>
          <button type="button" onClick={() => void send("auth/sign-out")}>
            {i18n.t("account.signOut")}
          </button>
        </section>
      ) : null}
      {webhookConfigured !== null ? (
        <p class={`small banner ${webhookConfigured ? "ok" : "warn"}`} data-testid="live-mode">
          {webhookConfigured ? i18n.t("account.liveOn") : i18n.t("account.liveOff")}
        </p>
      ) : null}
      <TokenPicker snapshot={props.snapshot} />
      <Devices />
    </div>
  );
}
