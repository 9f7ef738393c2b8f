import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import { refusalSentence } from "../../lib/shared/refusals.ts";
import type { Snapshot } from "../../lib/shared/snapshot.ts";
import { Avatar } from "../avatar.tsx";
import { ConfirmButton } from "../confirm-button.tsx";
import { Devices } from "./devices.tsx";
import { TokenPicker } from "./token-picker.tsx";

export function AccountPanel(props: { snapshot: Snapshot }) {
  const { user, webhookConfigured, webhookRefusals } = props.snapshot;
  const refused = webhookRefusals[0];
  return (
    <div class="stack">
      {user ? (
        <section class="card user" aria-label={i18n.t("account.signedInAs")} data-testid="user">
          <Avatar url={user.avatar_url} name={user.name} />
          <div style="flex:1">
            <strong>{user.name}</strong>
            <div class="small muted">@{user.login}</div>
          </div>
          <ConfirmButton
            label={i18n.t("account.signOut")}
            question={i18n.t("account.signOutQuestion")}
            confirmLabel={i18n.t("account.signOutConfirm")}
            keepLabel={i18n.t("account.signOutKeep")}
            onConfirm={() => void send("auth/sign-out")}
          />
        </section>
      ) : null}
      {webhookConfigured !== null ? (
        <p
          class={`small banner ${refused ? "bad" : webhookConfigured ? "ok" : "warn"}`}
          data-testid="live-mode"
        >
          {refused
            ? refusalSentence(refused)
            : webhookConfigured
              ? i18n.t("account.liveOn")
              : i18n.t("account.liveOff")}
        </p>
      ) : null}
      <TokenPicker snapshot={props.snapshot} />
      <Devices />
    </div>
  );
}
