import { i18n } from "../lib/shared/i18n.ts";
import type { LiveStatus } from "../lib/shared/messages.ts";
import type { Snapshot } from "../lib/shared/snapshot.ts";

/** What the header says about the link to the backend. */
export type Connection = "live" | "connecting" | "reconnecting" | "offline" | "signed_out";

/**
 * The connection as the person should see it: signed out and offline first (nothing live can
 * work), then the live stream's own state, which the background reports the moment it changes;
 * a backend the last call could not reach counts as reconnecting (the stream keeps trying).
 */
export function connectionOf(snapshot: Snapshot, online: boolean, live: LiveStatus | null) {
  if (snapshot.auth !== "signed_in") return "signed_out";
  if (!online || snapshot.connectivity === "offline") return "offline";
  if (live === "live") return "live";
  if (live === "reconnecting" || snapshot.connectivity === "unreachable") return "reconnecting";
  return "connecting";
}

const TEXT: Record<Connection, () => string> = {
  live: () => i18n.t("connection.live"),
  connecting: () => i18n.t("connection.connecting"),
  reconnecting: () => i18n.t("connection.reconnecting"),
  offline: () => i18n.t("connection.offline"),
  signed_out: () => i18n.t("connection.signedOut"),
};

/** A small pill in the header; a live region, so a change is announced. */
export function ConnectionStatus(props: { connection: Connection }) {
  return (
    <span
      class="connection"
      role="status"
      data-connection={props.connection}
      data-testid="connection"
    >
      {TEXT[props.connection]()}
    </span>
  );
}

/**
 * Above the content while the backend cannot be reached: the content stays (the last known
 * state), and the stream reconnects on its own; "Try now" does not wait for its next attempt.
 */
export function ConnectionLost(props: { backendUrl: string; onRetry: () => void }) {
  return (
    <div class="banner warn small" data-testid="connection-lost">
      <p>{i18n.t("connection.lostBody", { url: props.backendUrl })}</p>
      <button type="button" onClick={props.onRetry}>
        {i18n.t("connection.tryNow")}
      </button>
    </div>
  );
}
