import { useEffect, useState } from "preact/hooks";
import { browser } from "wxt/browser";
import { LIVE_PORT, type LiveStatus, type LiveStatusMessage, send } from "../shared/messages.ts";
import type { Snapshot } from "../shared/snapshot.ts";
import { BACKEND_URL, SNAPSHOT } from "../shared/item-specs.ts";
import { readBackendUrl, readStored, watchStored } from "./stored-value.ts";

/**
 * The snapshot for a view: the stored one first (no network wait, so the popup has content at
 * once), then whatever the background writes, live. Asks the background for a refresh on mount.
 * `null` only until storage answers (a few milliseconds).
 */
export function useSnapshot(): {
  snapshot: Snapshot | null;
  refreshing: boolean;
  refresh: () => void;
} {
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [refreshing, setRefreshing] = useState(false);

  const refresh = () => {
    setRefreshing(true);
    send("state/refresh")
      .then(setSnapshot)
      .catch(() => undefined)
      .finally(() => {
        setRefreshing(false);
      });
  };

  useEffect(() => {
    let alive = true;
    void readStored(SNAPSHOT, (items) => items.snapshotItem).then((stored) => {
      if (alive) setSnapshot((current) => current ?? stored);
    });
    const unwatch = watchStored(SNAPSHOT, (next) => {
      setSnapshot(next);
    });
    refresh();
    return () => {
      alive = false;
      unwatch();
    };
  }, []);

  return { snapshot, refreshing, refresh };
}

/**
 * Keeps the background's live stream open while the view is open, reconnecting if it restarts;
 * answers how the stream stands as the background tells it (null while disabled).
 */
export function useLivePort(enabled: boolean): LiveStatus | null {
  const [status, setStatus] = useState<LiveStatus | null>(null);
  useEffect(() => {
    if (!enabled) {
      setStatus(null);
      return;
    }
    setStatus("connecting");
    let port: ReturnType<typeof browser.runtime.connect> | null = null;
    let closed = false;
    const open = () => {
      port = browser.runtime.connect({ name: LIVE_PORT });
      port.onMessage.addListener((message: unknown) => {
        const next = (message as Partial<LiveStatusMessage> | null)?.liveStatus;
        if (next) setStatus(next);
      });
      // A service worker that was stopped drops the Port; the view opens a new one.
      port.onDisconnect.addListener(() => {
        if (closed) return;
        setStatus("reconnecting");
        setTimeout(open, 1_000);
      });
    };
    open();
    // A message now and then resets the service worker's idle timer while the stream is open.
    const ping = setInterval(() => port?.postMessage({ ping: true }), 20_000);
    return () => {
      closed = true;
      clearInterval(ping);
      port?.disconnect();
    };
  }, [enabled]);
  return status;
}

/** The current time, updated every `everyMs` (for elapsed and expiry texts). */
export function useNow(everyMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, everyMs);
    return () => {
      clearInterval(timer);
    };
  }, [everyMs]);
  return now;
}

/** Whether the browser is online; calls `onBack` when the connection returns. */
export function useOnline(onBack: () => void): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const up = () => {
      setOnline(true);
      onBack();
    };
    const down = () => {
      setOnline(false);
    };
    window.addEventListener("online", up);
    window.addEventListener("offline", down);
    return () => {
      window.removeEventListener("online", up);
      window.removeEventListener("offline", down);
    };
  }, []);
  return online;
}

/**
 * The backend address as the background uses it, kept current: `undefined` while storage answers,
 * `null` when none was chosen yet (a store build's first run).
 */
export function useBackendUrl(): string | null | undefined {
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    const read = () =>
      void readBackendUrl().then((value) => {
        if (alive) setUrl(value);
      });
    read();
    const unwatch = watchStored(BACKEND_URL, read);
    return () => {
      alive = false;
      unwatch();
    };
  }, []);
  return url;
}
