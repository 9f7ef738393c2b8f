import { i18n } from "../lib/i18n.ts";
import { useState } from "preact/hooks";
import { useBackendUrl, useLivePort, useOnline, useSnapshot } from "../lib/hooks.ts";
import { type Snapshot, activeCount } from "../lib/snapshot.ts";
import { AccountPanel } from "./account/account-panel.tsx";
import { ComposePanel } from "./compose/compose-panel.tsx";
import { ConnectionLost, connectionOf } from "./connection.tsx";
import { Header } from "./header.tsx";
import { MiniPlayer } from "./player/mini-player.tsx";
import { PlayerProvider } from "./player/player-context.tsx";
import { BackendSetup } from "./setup/backend-setup.tsx";
import { OfflineBanner, type Screen, StateScreen } from "./state-screen.tsx";
import { Tabs } from "./tabs.tsx";
import { TaskPanel } from "./tasks/task-panel.tsx";

type TabId = "compose" | "tasks" | "account";

/** The screen that replaces the tabs, if any: signed out, revoked, expired, unreachable. */
export function screenFor(snapshot: Snapshot): Screen | null {
  if (snapshot.auth !== "signed_in") {
    if (snapshot.connectivity === "unreachable") return "unreachable";
    return snapshot.auth;
  }
  return null;
}

/** The popup and the side panel: one app, two sizes. */
export function App(props: { surface: "popup" | "sidepanel" }) {
  const { snapshot, refresh } = useSnapshot();
  const online = useOnline(refresh);
  const [tab, setTab] = useState<TabId>("compose");
  const backendUrl = useBackendUrl();
  const live = useLivePort(snapshot?.auth === "signed_in");

  if (!snapshot || backendUrl === undefined) return <div class="app" aria-busy="true" />;
  // A store build's first run: nothing works before the person names their backend.
  if (backendUrl === null)
    return (
      <div class="app">
        <main class="app-main">
          <BackendSetup />
        </main>
      </div>
    );
  const screen = screenFor(snapshot);
  const connection = connectionOf(snapshot, online, live);
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
      <div class="app">
        <Header
          snapshot={snapshot}
          connection={connection}
          surface={props.surface}
          onAccount={() => {
            setTab("account");
          }}
        />
        {connection === "offline" ? <OfflineBanner /> : null}
        {screen ? (
          <main class="app-main">
            <StateScreen
              screen={screen}
              problem={snapshot.signInProblem}
              backendUrl={backendUrl}
              onRetry={refresh}
            />
          </main>
        ) : (
          <>
            {connection === "reconnecting" ? (
              <ConnectionLost backendUrl={backendUrl} onRetry={refresh} />
            ) : null}
            <Tabs label={i18n.t("app.tabs")} tabs={tabs} selected={tab} onSelect={setTab}>
              {tab === "compose" ? (
                <ComposePanel
                  snapshot={snapshot}
                  onSubmitted={() => {
                    setTab("tasks");
                  }}
                  onAccount={() => {
                    setTab("account");
                  }}
                />
              ) : tab === "tasks" ? (
                <TaskPanel
                  snapshot={snapshot}
                  onCompose={() => {
                    setTab("compose");
                  }}
                />
              ) : (
                <AccountPanel snapshot={snapshot} />
              )}
            </Tabs>
            <MiniPlayer />
          </>
        )}
      </div>
    </PlayerProvider>
  );
}
