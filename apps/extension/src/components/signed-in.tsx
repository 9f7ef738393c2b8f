import { i18n } from "../lib/shared/i18n.ts";
import { useEffect } from "preact/hooks";
import { lazy } from "../lib/views/lazy.tsx";
import { type Snapshot, activeCount } from "../lib/shared/snapshot.ts";
import { ComposePanel } from "./compose/compose-panel.tsx";
import { ConnectionLost } from "./connection.tsx";
import { MiniPlayer } from "./player/mini-player.tsx";
import { PlayerProvider } from "./player/player-context.tsx";
import { Tabs } from "./tabs.tsx";
import { TaskPanel } from "./tasks/task-panel.tsx";
import "./panels.css";

type TabId = "compose" | "tasks" | "account";

// The library and the compose form come with this chunk (the popup opens on one of them); the
// account tab is fetched while the person looks at it.
const AccountPanel = lazy(() => import("./account/account-panel.tsx").then((m) => m.AccountPanel));

/**
 * The popup and the side panel for a signed-in person, below the header: the tabs, their panels
 * and the mini player. A chunk of its own, so that the sign-in screen does not load it.
 */
export function SignedIn(props: {
  snapshot: Snapshot;
  surface: "popup" | "sidepanel";
  refreshing: boolean;
  backendUrl: string;
  reconnecting: boolean;
  onRetry: () => void;
  tab: TabId;
  onTab: (tab: TabId) => void;
}) {
  const { snapshot, tab, onTab } = props;
  useEffect(() => {
    // After the first tab has shown: switching tabs then waits for nothing.
    AccountPanel.preload().catch(() => undefined);
  }, []);
  /**
   * A tab shown by an action in another panel ("Use these settings", a submitted form): the
   * control that did it leaves the page with its panel, so the focus goes to the tab shown
   * (it fell to the page's body, and a keyboard user started again from the top).
   */
  const showTab = (id: TabId) => {
    onTab(id);
    setTimeout(() => document.getElementById(`tab-${id}`)?.focus(), 0);
  };
  const running = activeCount(snapshot.tasks);
  const tabs = [
    { id: "compose", label: i18n.t("app.compose") },
    {
      id: "tasks",
      label: i18n.t("app.tasks"),
      count: running,
      countLabel: i18n.t("app.tasksRunning", { count: running }),
    },
    { id: "account", label: i18n.t("app.account") },
  ] as const;

  return (
    <PlayerProvider>
      <main class="signed-in">
        {props.reconnecting ? (
          <ConnectionLost backendUrl={props.backendUrl} onRetry={props.onRetry} />
        ) : null}
        <Tabs label={i18n.t("app.tabs")} tabs={tabs} selected={tab} onSelect={onTab}>
          {tab === "compose" ? (
            <ComposePanel
              snapshot={snapshot}
              onSubmitted={() => {
                showTab("tasks");
              }}
              onAccount={() => {
                showTab("account");
              }}
            />
          ) : tab === "tasks" ? (
            <TaskPanel
              snapshot={snapshot}
              refreshing={props.refreshing}
              wide={props.surface === "sidepanel"}
              onCompose={() => {
                showTab("compose");
              }}
            />
          ) : (
            <AccountPanel snapshot={snapshot} />
          )}
        </Tabs>
      </main>
      <MiniPlayer />
    </PlayerProvider>
  );
}
