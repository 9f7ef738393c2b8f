import { TASK_STATES } from "@overture/backend/api";
import { OvertureError } from "../shared/errors.ts";
import type { LiveStatus, LiveStatusMessage } from "../shared/messages.ts";
import type { Task } from "../shared/types.ts";
import type { Api } from "./api.ts";
import type { Context } from "./context.ts";
import { networkError, responseError } from "./http.ts";
import { refresh } from "./refresh.ts";
import { reloadTasks, resetOf } from "./reset.ts";
import { eventCursorItem } from "./session-store.ts";
import { readEventStream, type SseEvent } from "./sse.ts";
import { applyTasks } from "./tasks.ts";

/** The part of a runtime Port the hub uses. */
export interface LivePort {
  postMessage(message: LiveStatusMessage): void;
  onDisconnect: { addListener(callback: () => void): void };
}

/** The backend sends a `: ping` every 15 s: two missed ones and a margin mean the link is dead. */
const IDLE_TIMEOUT_MS = 40_000;
/** While a view is open, a backend that comes back is found within this (the usual is `retry:`). */
const MAX_RECONNECT_DELAY_MS = 5_000;

const FATAL: readonly string[] = [
  "unauthenticated",
  "reauthentication_required",
  "signed_out",
  "session_expired",
];

/**
 * The task a live `task` event carries: the backend's Task JSON, as `GET /api/tasks/{id}` answers
 * it. What the snapshot keys and orders tasks by is checked, so data that is no task is dropped
 * rather than merged into the list.
 */
export function taskOf(data: string): Task | undefined {
  const value: unknown = JSON.parse(data);
  return isTask(value) ? value : undefined;
}

function isTask(value: unknown): value is Task {
  if (typeof value !== "object" || value === null) return false;
  const { id, status, updated_at: updatedAt } = value as Partial<Record<keyof Task, unknown>>;
  return (
    typeof id === "string" &&
    typeof updatedAt === "string" &&
    (TASK_STATES as readonly unknown[]).includes(status)
  );
}

/**
 * Catches up from the stored position before the stream opens: what changed since comes as one
 * compressed JSON answer (each task once), where the stream's replay is uncompressed text.
 * Answers the position to resume the stream from.
 */
async function catchUp(ctx: Context, api: Api, after: string): Promise<string> {
  let position = after;
  for (;;) {
    const page = await api.changes(position);
    // The backend cannot say what changed since `after` (its events were restored from an older
    // backup, or pruned past it): the whole list is read again, and the stream goes on from
    // the position it gives.
    if (resetOf(page)) await reloadTasks(ctx, api);
    else if (page.tasks.length > 0) await applyTasks(ctx, page.tasks);
    position = page.last_event_id;
    await eventCursorItem.setValue(position);
    if (!page.more) return position;
  }
}

/**
 * Applies one batch of the stream in order: task rows, and a `reset` (the backend lost track of
 * this client's position) as a reload of the whole list at that point of the batch.
 */
async function applyEvents(ctx: Context, api: Api, events: readonly SseEvent[]): Promise<void> {
  let tasks: Task[] = [];
  const flush = async () => {
    if (tasks.length > 0) await applyTasks(ctx, tasks);
    tasks = [];
  };
  for (const event of events) {
    if (event.event === "reset") {
      await flush();
      await reloadTasks(ctx, api);
      continue;
    }
    const task = event.event === "task" ? taskOf(event.data) : undefined;
    if (task) tasks.push(task);
  }
  await flush();
}

/**
 * Keeps the backend's event stream open while at least one view holds a Port, and closes it when
 * the last one goes (the polling alarm takes over). Events carry whole task rows; the stream
 * resumes with the stored `Last-Event-ID`, so a reconnect or a restarted background loses nothing.
 */
export function createLiveHub(ctx: Context) {
  const ports = new Set<LivePort>();
  let running: AbortController | null = null;
  let status: LiveStatus = "connecting";

  /** Tells every open view how the stream stands (and a new view at once, in `connect`). */
  function announce(next: LiveStatus): void {
    status = next;
    for (const port of ports) port.postMessage({ liveStatus: next });
  }

  async function run(signal: AbortSignal): Promise<void> {
    const session = await ctx.requireSession();
    const api = await ctx.api(session);
    let failed = false;
    // A failed catch-up (an older backend, a network blip) leaves it to the stream's replay.
    const stored = await eventCursorItem.getValue();
    const lastEventId = stored ? await catchUp(ctx, api, stored).catch(() => stored) : null;
    await readEventStream({
      request: (lastEventId) => api.eventsRequest(lastEventId),
      // A refused connection is "backend unreachable" (or offline), as for every other call.
      fetch: (request, init) =>
        ctx.deps.fetch(request, init).catch((cause: unknown) => {
          throw networkError(cause);
        }),
      lastEventId,
      signal,
      toError: responseError,
      isFatal: (error) => error instanceof OvertureError && FATAL.includes(error.code),
      maxDelayMs: MAX_RECONNECT_DELAY_MS,
      idleTimeoutMs: IDLE_TIMEOUT_MS,
      onStatus: ({ connected, error }) => {
        if (connected) {
          announce("live");
          void ctx.store.update((s) =>
            s.connectivity === "online" ? s : { ...s, connectivity: "online" },
          );
          // Back after a failure: events replay from Last-Event-ID; quota, selection and
          // refusals do not, so they are read again.
          if (failed) void refresh(ctx).catch(() => undefined);
          failed = false;
        } else if (error) {
          // A clean end (the server's own, with a `retry:`) is not news; a failure is.
          failed = true;
          announce("reconnecting");
          void ctx.noteFailure(error, session);
        }
      },
      // One snapshot write per batch: a replay of many tasks is applied at once.
      onEvents: (events) => applyEvents(ctx, api, events),
      // Saved after the events it covers were applied: a restart resumes after them, never past.
      onCursor: (id) => eventCursorItem.setValue(id),
    });
  }

  function start(): void {
    if (running || ports.size === 0) return;
    const controller = new AbortController();
    running = controller;
    announce("connecting");
    // A fatal error was noted (onStatus) when it happened, with the session it ended; noting it
    // again without one would turn "session expired" into a plain "signed out".
    run(controller.signal)
      .catch(() => undefined)
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
      port.postMessage({ liveStatus: running ? status : "connecting" });
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
