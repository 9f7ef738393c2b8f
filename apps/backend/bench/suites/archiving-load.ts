import { openSse } from "../lib/http1.ts";
import { sleep } from "../lib/stats.ts";
import type { Sample } from "./archiving-figures.ts";
import type { PlatformTimes } from "./archiving-platform.ts";
import { api } from "./polling.ts";

/** GET /api/me is sent this often, whether or not the last one has been answered. */
export const PROBE_EVERY_MS = 50;
/** A short task is submitted this often (three webhooks and three live events each). */
export const SUBMIT_EVERY_MS = 500;
/** The long task being archived is read this often, in every window alike. */
export const WATCH_EVERY_MS = 100;
/** The load's tasks: the platform's shortest, and made to fail there (archiving-platform.ts). */
export const SHORT_SECONDS = 30;

export interface TaskJson {
  id: string;
  status: string;
  file_url: string | null;
  platform_task_id: string | null;
  archive: { status: string; error?: string | null } | null;
}

/**
 * At most this many calls of one loop in flight: past it the backend is not keeping up, the
 * latencies are a queue's, and a call not sent is counted (and said) instead of piling up.
 */
export const MAX_IN_FLIGHT = 50;

/** Calls `fire` every `everyMs` without waiting for the last call; `stop` waits for them all. */
function openLoop(everyMs: number, fire: () => Promise<void>) {
  const inFlight = new Set<Promise<void>>();
  let skipped = 0;
  const timer = setInterval(() => {
    if (inFlight.size >= MAX_IN_FLIGHT) {
      skipped += 1;
      return;
    }
    const call = fire().finally(() => inFlight.delete(call));
    inFlight.add(call);
  }, everyMs);
  return {
    skipped: () => skipped,
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}

/**
 * The steady load of item 9, the same in every window: GET /api/me on an open loop (a stalled
 * backend meets more requests, not fewer), a short task on an open loop (its webhooks and live
 * events are timed by the platform side and the stream here), and a read of the long task being
 * followed. `follow` names that task; `latest` is its last answer and when it came.
 */
export async function startLoad(backendUrl: string, session: string, times: PlatformTimes) {
  const port = Number(new URL(backendUrl).port);
  const me: Sample[] = [];
  const live: Sample[] = [];
  let failed = 0;
  const stream = await openSse({
    port,
    path: "/api/events",
    headers: { Authorization: `Bearer ${session}` },
    onFrame(frame) {
      if (frame.event !== "task" || !frame.data) return;
      const task = JSON.parse(frame.data) as TaskJson;
      const key = `${task.platform_task_id ?? ""}:${task.status}`;
      const sentAt = times.sent.get(key);
      if (sentAt === undefined) return;
      live.push([sentAt, performance.now() - sentAt]);
      times.sent.delete(key);
    },
  });
  const submit = (duration: number, prompt: string) =>
    api<TaskJson>(backendUrl, session, "/api/tasks", {
      method: "POST",
      body: JSON.stringify({ prompt, duration }),
    });
  const counted = (call: Promise<unknown>) =>
    call.then(
      () => undefined,
      () => {
        failed += 1;
      },
    );
  const probes = openLoop(PROBE_EVERY_MS, () => {
    const started = performance.now();
    return counted(
      api(backendUrl, session, "/api/me").then(() => {
        me.push([started, performance.now() - started]);
      }),
    );
  });
  let n = 0;
  const submits = openLoop(SUBMIT_EVERY_MS, () => counted(submit(SHORT_SECONDS, `load ${n++}`)));
  const watch: { id?: string; latest?: { task: TaskJson; at: number } } = {};
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      const id = watch.id;
      if (id) {
        const task = await api<TaskJson>(backendUrl, session, `/api/tasks/${id}`).catch(
          () => undefined,
        );
        if (task && watch.id === id) watch.latest = { task, at: performance.now() };
      }
      await sleep(WATCH_EVERY_MS);
    }
  })();
  return {
    me,
    live,
    failed: () => failed,
    /** Calls the open loops did not send: the backend was that far behind. */
    skipped: () => probes.skipped() + submits.skipped(),
    submit,
    follow(id: string) {
      watch.id = id;
      delete watch.latest;
    },
    latest: () => watch.latest,
    async stop() {
      watching = false;
      await Promise.all([probes.stop(), submits.stop(), watcher]);
      stream.close();
    },
  };
}

export type Load = Awaited<ReturnType<typeof startLoad>>;
