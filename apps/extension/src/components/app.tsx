import { useState } from "preact/hooks";
import { useBackendUrl, useLivePort, useOnline, useSnapshot } from "../lib/views/hooks.ts";
import { lazy } from "../lib/views/lazy.tsx";
import type { Snapshot } from "../lib/shared/snapshot.ts";
import { connectionOf } from "./connection.tsx";
import { Header } from "./header.tsx";
import { OfflineBanner, type Screen, StateScreen } from "./state-screen.tsx";

type TabId = "compose" | "tasks" | "account";

// What the sign-in screen does not show is fetched when it is needed (issue 16: the popup's
// first chunk stays small, and a signed-out popup loads nothing more).
const SignedIn = lazy(() => import("./signed-in.tsx").then((m) => m.SignedIn));
const BackendSetup = lazy(() => import("./setup/backend-setup.tsx").then((m) => m.BackendSetup));

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

  return (
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
            retryAt={snapshot.signInRetryAt}
            backendUrl={backendUrl}
            onRetry={refresh}
          />
        </main>
      ) : (
        <SignedIn
          snapshot={snapshot}
          backendUrl={backendUrl}
          reconnecting={connection === "reconnecting"}
          onRetry={refresh}
          tab={tab}
          onTab={setTab}
        />
      )}
    </div>
  );
}
