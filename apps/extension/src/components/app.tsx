import { useEffect, useState } from "preact/hooks";
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
  const { snapshot, refreshing, refresh } = useSnapshot();
  const online = useOnline(refresh);
  const [chosenTab, setTab] = useState<TabId | null>(null);
  const backendUrl = useBackendUrl();
  const signedIn = snapshot?.auth === "signed_in";
  const live = useLivePort(signedIn);
  const [viewReady, setViewReady] = useState(SignedIn.loaded());
  useEffect(() => {
    if (!signedIn || viewReady) return;
    // The signed-in view's chunk is read while nothing is shown yet, so the first paint is the
    // library itself, not a header over an empty box that the list fills a moment later.
    void SignedIn.preload().then(
      () => {
        setViewReady(true);
      },
      () => {
        setViewReady(true);
      },
    );
  }, [signedIn]);

  if (!snapshot || backendUrl === undefined) return <div class="app" aria-busy="true" />;
  if (signedIn && backendUrl !== null && !viewReady) return <div class="app" aria-busy="true" />;
  // The library when there is one (what a person opens the popup for), else the compose form.
  const tab = chosenTab ?? (snapshot.tasks.length > 0 ? "tasks" : "compose");
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
          surface={props.surface}
          refreshing={refreshing}
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
