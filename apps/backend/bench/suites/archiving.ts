import { rmSync } from "node:fs";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createPlatformEmulator, DEFAULT_SEED } from "@overture/platform-emulator";
import { benchTmp, createPgDatabase } from "../lib/databases.ts";
import { openSse } from "../lib/http1.ts";
import { freePort } from "../lib/procs.ts";
import { figure, type Figure, type Section } from "../lib/report.ts";
import { startBackend, type DatabaseTarget } from "../lib/servers.ts";
import { fmt, percentile, sleep } from "../lib/stats.ts";
import { api, prepareUser } from "./polling.ts";
import type { BenchSettings } from "./settings.ts";

/**
 * Item 9: what archiving a 240 s result (48 kHz stereo WAV, ~46 MB) costs everything else, on
 * PGlite and on Postgres. A steady load runs throughout — GET /api/me every 20 ms, a short task
 * submitted every 400 ms (its webhooks, its live events, its own small archive) — and each p99
 * while the long result is archived is set beside the same p99 before it, in the same run.
 */
const SECRET = "whsec_overture_bench_archiving_0123456789";
const LONG_SECONDS = 240;
/** The shortest task the platform takes; its file is refused (below), so it adds no archiving. */
const SHORT_SECONDS = 30;
const BASELINE_MS = 10_000;
const PROBE_EVERY_MS = 20;
const SUBMIT_EVERY_MS = 1_000;
const [APP] = DEFAULT_SEED.applications;

type Sample = [at: number, ms: number];

interface Observed {
  me: Sample[];
  webhooks: Sample[];
  live: Sample[];
  /** Webhook send times by `<platform task id>:<status>`, to time its live event. */
  sent: Map<string, number>;
  /** First request for each result file, by path. */
  fileRequests: Map<string, number>;
  /**
   * The one result file served (the long one's), from memory: the emulator generates a WAV as it
   * sends it, in this process, which would stall the probes timed here. Other files answer 404,
   * so only it is archived; every file request waits until it is known.
   */
  served?: { path: string; body: ArrayBuffer };
  known: Promise<void>;
}

function timedEmulator(port: number, backendUrl: string, seen: Observed) {
  const emu = createPlatformEmulator({
    baseUrl: `http://127.0.0.1:${port}`,
    seed: {
      ...DEFAULT_SEED,
      applications: [{ ...APP, redirect_uri: `${backendUrl}/oauth/callback` }],
      webhookSecrets: { demo: SECRET },
      quotas: { demo: 10_000 },
    },
    speed: "demo",
    autoApprove: true,
    audioFormat: "studio",
    maxAudioSeconds: LONG_SECONDS,
    fetch: async (input, init) => {
      const event = JSON.parse(typeof init?.body === "string" ? init.body : "{}") as {
        task_id?: string;
        status?: string;
      };
      const sentAt = performance.now();
      seen.sent.set(`${event.task_id ?? ""}:${event.status ?? ""}`, sentAt);
      const response = await fetch(input, init);
      seen.webhooks.push([sentAt, performance.now() - sentAt]);
      return response;
    },
  });
  const server = serve({
    hostname: "127.0.0.1",
    port,
    fetch: (request: Request) => {
      const { pathname } = new URL(request.url);
      if (!pathname.startsWith("/files/")) return emu.app.fetch(request);
      return seen.known.then(() => {
        if (pathname !== seen.served?.path) return new Response("not served", { status: 404 });
        if (!seen.fileRequests.has(pathname)) seen.fileRequests.set(pathname, performance.now());
        const { body } = seen.served;
        return new Response(body, {
          headers: { "Content-Type": "audio/wav", "Content-Length": String(body.byteLength) },
        });
      });
    },
  });
  return {
    emu,
    close: () =>
      new Promise<void>((resolve) => {
        emu.control.close();
        server.close(() => {
          resolve();
        });
      }),
  };
}

interface TaskJson {
  id: string;
  status: string;
  file_url: string | null;
  platform_task_id: string | null;
  archive: { status: string } | null;
}

/** Runs `step` every `everyMs` until `stop()` is called. */
function every(everyMs: number, step: () => Promise<void>) {
  let running = true;
  const loop = (async () => {
    while (running) {
      await step().catch(() => undefined);
      await sleep(everyMs);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const p99 = (samples: readonly Sample[], from: number, to: number) =>
  percentile(
    samples.filter(([at]) => at >= from && at <= to).map(([, ms]) => ms),
    99,
  );

interface DriverRun {
  driver: string;
  me: [number, number];
  webhooks: [number, number];
  live: [number, number];
  archiveMs: number;
  readMs: number;
  counts: string;
}

async function runOn(driver: "pglite" | "pg", log: (m: string) => void): Promise<DriverRun> {
  const pg = driver === "pg" ? await createPgDatabase() : undefined;
  const folder = driver === "pglite" ? benchTmp("archiving") : undefined;
  const database: DatabaseTarget = pg ? { url: pg.url } : { dir: join(folder ?? "", "pglite") };
  const backendPort = await freePort();
  const emulatorPort = await freePort();
  const backendUrl = `http://127.0.0.1:${backendPort}`;
  let release: () => void = () => undefined;
  const seen: Observed = {
    me: [],
    webhooks: [],
    live: [],
    sent: new Map(),
    fileRequests: new Map(),
    known: new Promise((resolve) => {
      release = resolve;
    }),
  };
  const platform = timedEmulator(emulatorPort, backendUrl, seen);
  const stops: (() => Promise<void> | void)[] = [];
  let backend: Awaited<ReturnType<typeof startBackend>> | undefined;
  try {
    backend = await startBackend(
      database,
      {
        PLATFORM_BASE_URL: `http://127.0.0.1:${emulatorPort}`,
        PLATFORM_CLIENT_ID: APP.client_id,
        PLATFORM_CLIENT_SECRET: APP.client_secret,
        ARCHIVE_STORAGE: "postgres",
      },
      [],
      backendPort,
    );
    const session = await prepareUser(backendUrl, "demo", "demo", SECRET);
    const stream = await openSse({
      port: backendPort,
      path: "/api/events",
      headers: { Authorization: `Bearer ${session}` },
      onFrame(frame) {
        if (frame.event !== "task" || !frame.data) return;
        const task = JSON.parse(frame.data) as TaskJson;
        const sentAt = seen.sent.get(`${task.platform_task_id ?? ""}:${task.status}`);
        if (sentAt !== undefined) {
          seen.live.push([sentAt, performance.now() - sentAt]);
          seen.sent.delete(`${task.platform_task_id ?? ""}:${task.status}`);
        }
      },
    });
    stops.push(() => {
      stream.close();
    });
    const submit = (duration: number, prompt: string) =>
      api<TaskJson>(backendUrl, session, "/api/tasks", {
        method: "POST",
        body: JSON.stringify({ prompt, duration }),
      });
    stops.push(
      every(PROBE_EVERY_MS, async () => {
        const started = performance.now();
        await api(backendUrl, session, "/api/me");
        seen.me.push([started, performance.now() - started]);
      }),
    );
    let n = 0;
    stops.push(
      every(SUBMIT_EVERY_MS, () => submit(SHORT_SECONDS, `load ${n++}`).then(() => undefined)),
    );
    await sleep(3_000); // warm-up: the load reaches its steady state
    const baselineFrom = performance.now();
    await sleep(BASELINE_MS);
    const baselineTo = performance.now();
    log(`  ${driver}: baseline measured; submitting the ${LONG_SECONDS} s result`);
    const long = await submit(LONG_SECONDS, "the long one");
    const done = await waitFor(
      "the long result",
      async () => {
        const task = await api<TaskJson>(backendUrl, session, `/api/tasks/${long.id}`);
        return task.status === "success" && task.file_url ? task : undefined;
      },
      60_000,
    );
    const filePath = new URL(done.file_url ?? "").pathname;
    const file = await platform.emu.app.fetch(new Request(done.file_url ?? ""));
    seen.served = { path: filePath, body: await file.arrayBuffer() };
    release();
    const archivedAt = await waitFor(
      "the long result archived",
      async () => {
        const task = await api<TaskJson>(backendUrl, session, `/api/tasks/${long.id}`);
        return task.archive?.status === "archived" ? performance.now() : undefined;
      },
      300_000,
    );
    const archiveFrom = seen.fileRequests.get(filePath) ?? archivedAt;
    for (const stop of stops.splice(1).reverse()) await stop();
    const readStarted = performance.now();
    const body = await (await fetch(done.file_url ?? "")).arrayBuffer();
    const readMs = performance.now() - readStarted;
    const inWindow = (s: Sample[], from: number, to: number) =>
      s.filter(([at]) => at >= from && at <= to).length;
    return {
      driver,
      me: [p99(seen.me, archiveFrom, archivedAt), p99(seen.me, baselineFrom, baselineTo)],
      webhooks: [
        p99(seen.webhooks, archiveFrom, archivedAt),
        p99(seen.webhooks, baselineFrom, baselineTo),
      ],
      live: [p99(seen.live, archiveFrom, archivedAt), p99(seen.live, baselineFrom, baselineTo)],
      archiveMs: archivedAt - archiveFrom,
      readMs,
      counts:
        `${driver}: ${fmt(body.byteLength / 1e6)} MB; samples while archiving / before: ` +
        `GET /api/me ${inWindow(seen.me, archiveFrom, archivedAt)} / ${inWindow(seen.me, baselineFrom, baselineTo)}, ` +
        `webhooks ${inWindow(seen.webhooks, archiveFrom, archivedAt)} / ${inWindow(seen.webhooks, baselineFrom, baselineTo)}, ` +
        `live events ${inWindow(seen.live, archiveFrom, archivedAt)} / ${inWindow(seen.live, baselineFrom, baselineTo)}.`,
    };
  } finally {
    release();
    for (const stop of stops.reverse()) await stop();
    await backend?.child.stop();
    await platform.close();
    await pg?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

const WITHIN_2X = "≤ 2× the same p99 without archiving";

export function p99Figure(name: string, [value, reference]: [number, number]): Figure {
  const met = value <= 2 * reference;
  return figure(name, value, "ms", {
    reference: { name: "no archiving, same run", value: reference },
    better: "lower",
    target: WITHIN_2X,
    met,
    ...(met ? {} : { shortBy: `${fmt(value / reference)}× the reference` }),
  });
}

export async function archivingSuite(settings: BenchSettings): Promise<Section[]> {
  const runs: DriverRun[] = [];
  for (const driver of ["pglite", "pg"] as const)
    runs.push(
      await runOn(driver, (message) => {
        settings.log(message);
      }),
    );
  const figures = runs.flatMap((run) => [
    p99Figure(`GET /api/me p99 while a 240 s result is archived [${run.driver}]`, run.me),
    p99Figure(`webhook delivery p99 while archiving [${run.driver}]`, run.webhooks),
    p99Figure(`live stream delay p99 while archiving [${run.driver}]`, run.live),
    figure(`time to archive a 240 s result [${run.driver}]`, run.archiveMs, "ms", {
      reference: { name: "reading its WAV from the emulator", value: run.readMs },
      better: "lower",
    }),
  ]);
  return [
    {
      id: "9",
      title: "Archiving a 240 s result (issue: archive without holding the database)",
      figures,
      notes: [
        "The built backend (`node dist/index.js`) on a fresh PGlite folder, then on a fresh Postgres " +
          "database, against the platform emulator (48 kHz stereo WAV; a 240 s result is ~46 MB) " +
          "served from the benchmark's own process. A steady load runs throughout: GET /api/me every " +
          `${PROBE_EVERY_MS} ms (one at a time), a ${SHORT_SECONDS} s task submitted every ` +
          `${SUBMIT_EVERY_MS} ms (its webhooks and the live event each one causes on an open ` +
          "/api/events stream; its file answers 404, so the load archives nothing and the " +
          "reference window has no archiving at all). The reference window is " +
          `${BASELINE_MS / 1000} s of that load before the long result is submitted; the measured ` +
          "window runs from the archiver's first request for the long result's file to the task " +
          "reading `archived`. Webhook delivery: the emulator's send to the backend's answer; live " +
          "delay: the send to the event's frame on the stream. Time to archive: the same window; " +
          "its reference is reading the same WAV from the emulator in the same run.",
        "The long result's WAV is generated once before the window and served from memory (the " +
          "emulator would otherwise generate it in the process that times the probes); the " +
          "reference read is an HTTP GET of it from the emulator's server, read to the end.",
        ...runs.map((run) => run.counts),
      ],
    },
  ];
}
