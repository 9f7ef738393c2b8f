import { OvertureError } from "../errors.ts";
import type { Task } from "../types.ts";
import type { Context } from "./context.ts";
import { responseError } from "./http.ts";
import { eventCursorItem } from "./session-store.ts";
import { readEventStream } from "./sse.ts";
import { applyTasks } from "./tasks.ts";

/** The part of a runtime Port the hub uses. */
export interface LivePort {
  onDisconnect: { addListener(callback: () => void): void };
}

const FATAL: readonly string[] = [
  "unauthenticated",
  "reauthentication_required",
  "signed_out",
  "session_expired",
];

/**
 * Keeps the backend's event stream open while at least one view holds a Port, and closes it when
 * the last one goes (the polling alarm takes over). Events carry whole task rows; the stream
 * resumes with the stored `Last-Event-ID`, so a reconnect or a restarted background loses nothing.
 */
export function createLiveHub(ctx: Context) {
  const ports = new Set<LivePort>();
  let running: AbortController | null = null;

  async function run(signal: AbortSignal): Promise<void> {
    const session = await ctx.requireSession();
    const api = await ctx.api(session);
    await readEventStream({
      request: (lastEventId) => api.eventsRequest(lastEventId),
      fetch: ctx.deps.fetch,
      lastEventId: await eventCursorItem.getValue(),
      signal,
      toError: responseError,
      isFatal: (error) => error instanceof OvertureError && FATAL.includes(error.code),
      onStatus: ({ connected, error }) => {
        if (connected)
          void ctx.store.update((s) =>
            s.connectivity === "online" ? s : { ...s, connectivity: "online" },
          );
        else if (error) void ctx.noteFailure(error, session);
      },
      onEvent: async (event) => {
        if (event.event === "task") await applyTasks(ctx, [JSON.parse(event.data) as Task]);
      },
      // Saved after the events it covers were applied: a restart resumes after them, never past.
      onCursor: (id) => eventCursorItem.setValue(id),
    });
  }

  function start(): void {
    if (running || ports.size === 0) return;
    const controller = new AbortController();
    running = controller;
    run(controller.signal)
      .catch((error: unknown) => ctx.noteFailure(error, null))
      .finally(() => {
        if (running === controller) running = null;
      });
  }

  function stop(): void {
    running?.abort();
    running = null;
  }

  return {
    /** `runtime.onConnect` listener for the live Port. */
    connect(port: LivePort): void {
      ports.add(port);
      port.onDisconnect.addListener(() => {
        ports.delete(port);
        if (ports.size === 0) stop();
      });
      start();
    },
    /** After sign-in, sign-out or a backend change: reopen the stream for the new session. */
    restart(): void {
      stop();
      start();
    },
    stop,
    isLive: () => running !== null,
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
