import type { Page } from "playwright-core";

/** The old WAV path (the reference): the background fetches the file and sends it base64 over a Port. */
export function wavThroughPort(page: Page, id: string) {
  return page.evaluate(async (taskId) => {
    interface Port {
      postMessage(message: unknown): void;
      disconnect(): void;
      onMessage: {
        addListener(listener: (message: { kind: string; data?: string }) => void): void;
      };
    }
    const runtime = (globalThis as unknown as { chrome: { runtime: { connect(i: object): Port } } })
      .chrome.runtime;
    const started = performance.now();
    return new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
      const port = runtime.connect({ name: "overture/audio" });
      let bytes = 0;
      port.onMessage.addListener((message) => {
        if (message.kind === "chunk") bytes += atob(message.data ?? "").length;
        else if (message.kind === "end") {
          port.disconnect();
          resolve({ ms: performance.now() - started, bytes });
        } else if (message.kind === "error") reject(new Error(JSON.stringify(message)));
      });
      port.postMessage({ id: taskId });
    });
  }, id);
}
