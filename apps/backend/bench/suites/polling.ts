import { createPkcePair } from "@overture/core/oauth";
import { isTerminalStatus } from "@overture/core/task";
import { nextPollDelay } from "../../src/services/tasks/schedule.ts";
import { createPgDatabase } from "../lib/databases.ts";
import { BENCH_APP, serveEmulator } from "../lib/emulator-server.ts";
import { openSse } from "../lib/http1.ts";
import { freePort } from "../lib/procs.ts";
import { figure, type Section } from "../lib/report.ts";
import { CHROME_REDIRECT, startBackend } from "../lib/servers.ts";
import { fmt, median, percentile, sleep } from "../lib/stats.ts";
import type { BenchSettings } from "./settings.ts";

/**
 * Item 5: what status costs in platform requests, with webhooks and without, and how long after
 * a task finishes on the platform the extension sees it. The emulator (spec timing, 1–10 minute
 * tasks) runs on a clock scaled ×`clockScale`; the backend runs on the wall clock, unchanged.
 * Two users at once: `demo` has the account's webhook secret (callbacks on), `ada` submits to the
 * `overture-lab` account without one (polling only).
 */
const SECRET = "whsec_overture_bench_polling_0123456789";
const TASKS_PER_MODE = 6;
type Mode = "webhooks" | "polling";
const MODE_OF: Record<string, Mode> = { demo: "webhooks", "overture-lab": "polling" };

interface Counts {
  submits: Map<string, number>;
  polls: Map<string, number[]>;
  other: number;
}

function countingEmulator(port: number, backendUrl: string, scale: number, counts: Counts) {
  return serveEmulator({
    port,
    backendUrl,
    secret: SECRET,
    quotas: { demo: 10, "overture-lab": 10 },
    options: {
      speed: "spec",
      clockScale: scale,
      autoApprove: true,
      // Signed with the wall clock: the backend checks the timestamp against its own (unscaled) time.
      webhook: { timestampClock: "wall" },
    },
    handle(request, pass) {
      const { pathname } = new URL(request.url);
      const poll = /^\/(?:api\/)?v1\/task\/([^/]+)(?:\/status)?$/.exec(pathname);
      if (request.method === "GET" && poll?.[1]) {
        const id = decodeURIComponent(poll[1]);
        counts.polls.set(id, [...(counts.polls.get(id) ?? []), performance.now()]);
      } else if (request.method === "POST" && pathname === "/v1/async/music/generations") {
        const auth = request.headers.get("authorization") ?? "";
        counts.submits.set(auth, (counts.submits.get(auth) ?? 0) + 1);
      } else if (!pathname.startsWith("/__emulator")) counts.other += 1;
      return pass(request);
    },
  });
}

export async function signIn(backendUrl: string, login: string): Promise<string> {
  const pkce = await createPkcePair();
  const start = new URL("/auth/start", backendUrl);
  start.search = new URLSearchParams({
    redirect_uri: CHROME_REDIRECT,
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
  }).toString();
  const hop = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, redirect: "manual" });
    const location = response.headers.get("location");
    if (!location)
      throw new Error(`${url.split("?")[0] ?? url}: HTTP ${response.status}, no redirect`);
    return location;
  };
  const authorize = await hop(start.toString());
  const callback = await hop(authorize, { headers: { Cookie: `emu_user=${login}` } });
  const code = new URL(await hop(callback)).searchParams.get("code");
  if (!code) throw new Error(`sign-in of ${login} ended without a code`);
  const response = await fetch(new URL("/auth/token", backendUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, code_verifier: pkce.verifier }),
  });
  const body = (await response.json()) as { session_token?: string };
  if (!body.session_token) throw new Error(`/auth/token for ${login}: HTTP ${response.status}`);
  return body.session_token;
}

export async function api<T>(
  backendUrl: string,
  session: string,
  path: string,
  init: RequestInit = {},
) {
  const response = await fetch(new URL(path, backendUrl), {
    ...init,
    headers: { Authorization: `Bearer ${session}`, "Content-Type": "application/json" },
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${init.method ?? "GET"} ${path}: HTTP ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function prepareUser(
  backendUrl: string,
  login: string,
  namespace: string,
  secret?: string,
) {
  const session = await signIn(backendUrl, login);
  const { tokens } = await api<{ tokens: { id: number; usage_scenario: string }[] }>(
    backendUrl,
    session,
    `/api/namespaces/${namespace}/tokens`,
  );
  const token = tokens.find((t) => t.usage_scenario === "paid") ?? tokens[0];
  if (!token) throw new Error(`no access token in ${namespace}`);
  await api(backendUrl, session, "/api/selection", {
    method: "PUT",
    body: JSON.stringify({ namespace, token_id: token.id }),
  });
  if (secret) {
    await api(backendUrl, session, `/api/namespaces/${namespace}/webhook-secret`, {
      method: "PUT",
      body: JSON.stringify({ secret }),
    });
  }
  return session;
}

interface TaskTrack {
  mode: Mode;
  submittedAt: number;
  finishedAt?: number;
  seenAt?: number;
}

export async function pollingSuite(settings: BenchSettings): Promise<Section[]> {
  const scale = settings.clockScale;
  const db = await createPgDatabase();
  const backendPort = await freePort();
  const emulatorPort = await freePort();
  const backendUrl = `http://127.0.0.1:${backendPort}`;
  const counts: Counts = { submits: new Map(), polls: new Map(), other: 0 };
  const platform = countingEmulator(emulatorPort, backendUrl, scale, counts);
  const app = BENCH_APP;
  const tracks = new Map<string, TaskTrack>();
  const streams: { close: () => void }[] = [];
  let backend: Awaited<ReturnType<typeof startBackend>> | undefined;
  try {
    backend = await startBackend(
      { url: db.url },
      {
        PLATFORM_BASE_URL: `http://127.0.0.1:${emulatorPort}`,
        PLATFORM_CLIENT_ID: app.client_id,
        PLATFORM_CLIENT_SECRET: app.client_secret,
      },
      [],
      backendPort,
    );
    const users = [
      { login: "demo", namespace: "demo", secret: SECRET },
      { login: "ada", namespace: "overture-lab" },
    ];
    const sessions = await Promise.all(
      users.map((u) => prepareUser(backendUrl, u.login, u.namespace, u.secret)),
    );
    for (const session of sessions) {
      const stream = await openSse({
        port: backendPort,
        path: "/api/events",
        headers: { Authorization: `Bearer ${session}` },
        onFrame(frame) {
          if (frame.event !== "task" || !frame.data) return;
          const task = JSON.parse(frame.data) as {
            platform_task_id: string | null;
            status: string;
          };
          const track = task.platform_task_id ? tracks.get(task.platform_task_id) : undefined;
          if (track && track.seenAt === undefined && isTerminalStatus(task.status))
            track.seenAt = performance.now();
        },
      });
      streams.push(stream);
    }
    const started = performance.now();
    await Promise.all(
      sessions.flatMap((session, u) =>
        Array.from({ length: TASKS_PER_MODE }, async () => {
          const created = await api<{ platform_task_id: string | null; namespace: string }>(
            backendUrl,
            session,
            "/api/tasks",
            {
              method: "POST",
              body: JSON.stringify({
                prompt: "warm lo-fi piano, vinyl crackle, slow tempo",
                lyrics: "[verse]\nLate night light on the keys\n[chorus]\nOverture, play for me",
                duration: 30,
              }),
            },
          );
          if (!created.platform_task_id)
            throw new Error(`task of ${users[u]?.login ?? "?"} not submitted`);
          tracks.set(created.platform_task_id, {
            mode: MODE_OF[created.namespace] ?? "polling",
            submittedAt: performance.now(),
          });
        }),
      ),
    );
    // The platform's view, every 10 ms: the moment each task reaches its final status.
    const deadline = performance.now() + 120_000;
    while (performance.now() < deadline) {
      const now = performance.now();
      for (const view of platform.emu.control.listTasks()) {
        const track = tracks.get(view.task_id);
        if (track && track.finishedAt === undefined && isTerminalStatus(view.status))
          track.finishedAt = now;
      }
      if ([...tracks.values()].every((t) => t.seenAt !== undefined)) break;
      await sleep(10);
    }
    settings.log(
      `  polling: ${tracks.size} tasks done in ${fmt((performance.now() - started) / 1000)} s`,
    );
  } finally {
    for (const stream of streams) stream.close();
    await backend?.child.stop();
    await platform.close();
    await db.drop();
  }
  return [pollingSection(tracks, counts, scale)];
}

function pollingSection(tracks: Map<string, TaskTrack>, counts: Counts, scale: number): Section {
  const of = (mode: Mode) => [...tracks.entries()].filter(([, t]) => t.mode === mode);
  const stats = (mode: Mode) => {
    const list = of(mode);
    const polls = list.map(([id]) => counts.polls.get(id)?.length ?? 0);
    const delays = list
      .filter(([, t]) => t.finishedAt !== undefined && t.seenAt !== undefined)
      .map(([, t]) => (t.seenAt ?? 0) - (t.finishedAt ?? 0));
    const intervals = list.flatMap(([id]) => {
      const times = counts.polls.get(id) ?? [];
      return times.slice(1).map((at, i) => (at - (times[i] ?? at)) / 1000);
    });
    const lives = list.map(([, t]) => ((t.finishedAt ?? t.submittedAt) - t.submittedAt) / 1000);
    return {
      tasks: list.length,
      finished: delays.length,
      pollsPerTask: polls.reduce((a, b) => a + b, 0) / Math.max(1, list.length),
      delays,
      intervals,
      lifeSeconds: median(lives),
    };
  };
  const on = stats("webhooks");
  const off = stats("polling");
  const submits = [...counts.submits.values()].reduce((a, b) => a + b, 0);
  const allTasks = on.tasks + off.tasks;
  const interval = median(off.intervals);
  const figures = [
    figure("webhooks working: status polls per finished task", on.pollsPerTask, "polls", {
      reference: { name: "webhooks off", value: off.pollsPerTask },
      better: "lower",
      target: "0 beyond the safety net",
      met: on.pollsPerTask === 0 && on.finished === on.tasks,
    }),
    figure("webhooks working: finish on platform → SSE, p50", percentile(on.delays, 50), "ms", {
      reference: { name: "webhooks off p50", value: percentile(off.delays, 50) },
      better: "lower",
      note: `max ${fmt(Math.max(...on.delays))} ms vs ${fmt(Math.max(...off.delays))} ms`,
    }),
    figure("webhooks off: interval between polls of a task, median", interval, "s", {
      target: "5–10 s back-off (±20 % jitter)",
      met: interval >= 4 && interval <= 12,
      note: `range ${fmt(Math.min(...off.intervals))}–${fmt(Math.max(...off.intervals))} s`,
    }),
    figure("webhooks off: status polls per finished task", off.pollsPerTask, "polls", {
      note: `median task life ${fmt(off.lifeSeconds)} s wall (${fmt((off.lifeSeconds * scale) / 60)} emulated minutes)`,
    }),
  ];
  const projection = [60, 300, 600].map(
    (seconds) => `${seconds / 60} min: ${projectedPolls(seconds)}`,
  );
  return {
    id: "5",
    title: "Polling cost and time to the extension",
    figures,
    notes: [
      `The platform emulator (spec timing: waiting 5–30 s, running 55–570 s, 5 % failures) on a clock scaled ×${scale}, ` +
        `so a "1–10 minute" task lasts ${fmt(55 / scale)}–${fmt(600 / scale)} s of wall time; the backend (\`node dist/index.js\`, ` +
        `Postgres) runs unchanged on the wall clock. ${TASKS_PER_MODE} tasks per mode at once: user demo with the account's ` +
        `webhook secret entered (callbacks on), user ada in overture-lab without one (polling only). Every request the ` +
        `backend sends the platform is counted; "finish" is the moment the emulator's task turns final (watched every ` +
        `10 ms), "seen" the moment the final \`event: task\` frame reaches an SSE client of its user.`,
      `Platform requests in this run: ${submits} submits for ${allTasks} tasks, ` +
        `${[...counts.polls.values()].reduce((a, b) => a + b.length, 0)} status polls, ${counts.other} others ` +
        `(OAuth, user info, access tokens, proxy-token mints, quota) for two sign-ins.`,
      `How the scaled clock bends the figures: the backend's schedule is on wall time, the tasks are ${scale}× shorter, so ` +
        `polls per task here are far fewer than with real durations (roughly in proportion), while the intervals and the ` +
        `delays are real. ` +
        `Without webhooks the backend polls at 5 s × 1.25ⁿ capped at 10 s (±20 % jitter): a real task of ${projection.join(", ")} ` +
        `status polls, and the extension learns of the end ${fmt(interval / 2)} s later on average (half an interval). With ` +
        `webhooks the only polls are the safety net: the first 60 s after submit, then every 60–120 s until the task outgrows ` +
        `the spec's 10 minutes — 0 for tasks under a minute, about one per 90 s beyond.`,
    ],
  };
}

/** Status polls of a task lasting `seconds` without webhooks (median jitter), the final one included. */
function projectedPolls(seconds: number): number {
  const schedule = { expectedDurationMs: 600_000, random: () => 0.5 };
  let at = 5_000;
  let polls = 0;
  while (at < seconds * 1000) {
    polls += 1;
    at += nextPollDelay({ webhookExpected: false, startedAt: 0, pollCount: polls }, at, schedule);
  }
  return polls + 1;
}
