import { createPkcePair } from "@overture/core/oauth";
import { browser } from "wxt/browser";
import { AUDIO_PORT } from "../shared/audio-transfer.ts";
import { LIVE_PORT, serveMessages } from "../shared/messages.ts";
import { serveAudio } from "./audio.ts";
import { browserCacheStorage } from "./audio-cache.ts";
import { type BackgroundDeps, createContext } from "./context.ts";
import { createHandlers } from "./handlers/index.ts";
import { createLiveHub } from "./live.ts";
import { NOTIFICATION_PREFIX } from "./notify.ts";
import { applyLanguage } from "../shared/preferences.ts";
import { preferencesItem } from "../shared/storage.ts";
import { POLL_ALARM } from "./poller.ts";
import { refreshRefusals } from "./refusals.ts";
import { checkActiveTasks, settle } from "./tasks.ts";

/** The real browser's dependencies. */
export function browserDeps(): BackgroundDeps {
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    now: () => Date.now(),
    identity: {
      getRedirectURL: (path) => browser.identity.getRedirectURL(path),
      launchWebAuthFlow: (details) => browser.identity.launchWebAuthFlow(details),
    },
    createPkcePair,
    cacheStorage: browserCacheStorage(),
  };
}

/**
 * Builds the background and registers its listeners synchronously (an MV3 service worker only
 * receives events whose listeners exist in its first turn).
 */
export function startBackground(deps: BackgroundDeps = browserDeps()) {
  const ctx = createContext(deps);
  const live = createLiveHub(ctx);
  const handlers = createHandlers(ctx, live);
  const stopServing = serveMessages(handlers);

  browser.runtime.onConnect.addListener((port) => {
    if (port.name === LIVE_PORT) live.connect(port);
    else if (port.name === AUDIO_PORT) serveAudio(ctx, port);
  });

  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name !== POLL_ALARM) return;
    // Live events bring every task change while a view is open; refused callbacks they do not
    // bring, so those are re-read on the alarm's beat.
    if (live.isLive()) void refreshRefusals(ctx).catch(() => undefined);
    else void checkActiveTasks(ctx).catch(() => undefined);
  });

  browser.notifications.onClicked.addListener((id) => {
    if (!id.startsWith(NOTIFICATION_PREFIX)) return;
    void browser.tabs.create({ url: browser.runtime.getURL("/sidepanel.html") });
    void browser.notifications.clear(id);
  });

  // Notifications speak the language chosen in the options (the background has no view to reload).
  const speak = (language: Parameters<typeof applyLanguage>[0]) =>
    void applyLanguage(language).catch(() => undefined);
  void preferencesItem
    .getValue()
    .then((preferences) => {
      speak(preferences.language);
    })
    .catch(() => undefined);
  preferencesItem.watch((preferences) => {
    speak(preferences.language);
  });

  // After a browser restart or an update: badge and alarm from the last known tasks.
  const restored = ctx.store
    .read()
    .then((snapshot) => settle(snapshot.tasks, snapshot.tasks))
    .catch(() => undefined);

  return { ctx, live, handlers, restored, stop: stopServing };
}
