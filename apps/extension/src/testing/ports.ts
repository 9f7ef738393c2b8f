// Test-only: runtime Ports and onConnect, which @webext-core/fake-browser does not implement.
import { fakeBrowser } from "wxt/testing/fake-browser";

type Listener<A extends unknown[]> = (...args: A) => void;

export function fakeEvent<A extends unknown[]>() {
  const listeners = new Set<Listener<A>>();
  return {
    addListener: (listener: Listener<A>) => void listeners.add(listener),
    removeListener: (listener: Listener<A>) => void listeners.delete(listener),
    hasListener: (listener: Listener<A>) => listeners.has(listener),
    hasListeners: () => listeners.size > 0,
    trigger: (...args: A) => {
      for (const listener of [...listeners]) listener(...args);
    },
  };
}

export interface FakePort {
  name: string;
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: ReturnType<typeof fakeEvent<[unknown]>>;
  onDisconnect: ReturnType<typeof fakeEvent<[]>>;
}

/** Two connected ends: a message posted on one arrives on the other; disconnect notifies the other. */
export function portPair(name: string): [view: FakePort, background: FakePort] {
  const make = (): FakePort => ({
    name,
    postMessage: () => undefined,
    disconnect: () => undefined,
    onMessage: fakeEvent<[unknown]>(),
    onDisconnect: fakeEvent<[]>(),
  });
  const view = make();
  const background = make();
  let open = true;
  const link = (from: FakePort, to: FakePort) => {
    from.postMessage = (message) => {
      // Ports carry JSON, like the real ones.
      if (open)
        queueMicrotask(() => {
          to.onMessage.trigger(JSON.parse(JSON.stringify(message)) as unknown);
        });
    };
    from.disconnect = () => {
      if (!open) return;
      open = false;
      to.onDisconnect.trigger();
    };
  };
  link(view, background);
  link(background, view);
  return [view, background];
}

/** Installs `runtime.onConnect` and `runtime.connect` on the fake browser. */
export function installPorts(): void {
  const onConnect = fakeEvent<[FakePort]>();
  const runtime = fakeBrowser.runtime as unknown as Record<string, unknown>;
  runtime.onConnect = onConnect;
  runtime.connect = (info?: { name?: string }) => {
    const [view, background] = portPair(info?.name ?? "");
    onConnect.trigger(background);
    return view;
  };
}
