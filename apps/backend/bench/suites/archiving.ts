import type { Section } from "../lib/report.ts";
import { fmt } from "../lib/stats.ts";
import { archiveFigure, compareP99, MIN_SAMPLES, p99Figure, within } from "./archiving-figures.ts";
import {
  MAX_IN_FLIGHT,
  PROBE_EVERY_MS,
  SHORT_SECONDS,
  SUBMIT_EVERY_MS,
  WATCH_EVERY_MS,
} from "./archiving-load.ts";
import { makeLongWav } from "./archiving-platform.ts";
import {
  CYCLES,
  type DriverRun,
  LONG_SECONDS,
  runOn,
  SETTLE_MS,
  WARM_UP_SECONDS,
  WARMUP_MS,
} from "./archiving-run.ts";
import type { BenchSettings } from "./settings.ts";

/**
 * Item 9: what archiving a 240 s result (48 kHz stereo WAV, ~46 MB) costs everything else, on
 * PGlite and on Postgres. A steady load runs throughout; archives and stretches of that load
 * alone take turns, and each p99 over all the archives is set beside the same p99 over all the
 * stretches between them, in the same run (archiving-run.ts).
 */
export async function archivingSuite(settings: BenchSettings): Promise<Section[]> {
  const wav = await makeLongWav(LONG_SECONDS);
  const runs: DriverRun[] = [];
  for (const driver of ["pglite", "pg"] as const)
    runs.push(
      await runOn(driver, wav, settings.archiveBudgetMs, (message) => {
        settings.log(message);
      }),
    );
  return [
    {
      id: "9",
      title: "Archiving a 240 s result (issue: archive without holding the database)",
      figures: runs.flatMap(driverFigures),
      notes: [...method(settings), ...runs.map((run) => counts(run, wav.byteLength))],
    },
  ];
}

function driverFigures(run: DriverRun) {
  const on = (name: string) => `${name} [${run.driver}]`;
  return [
    p99Figure(
      on("GET /api/me p99 while a 240 s result is archived"),
      compareP99(run.me, run.cycles),
    ),
    p99Figure(on("webhook delivery p99 while archiving"), compareP99(run.webhooks, run.cycles)),
    p99Figure(on("live stream delay p99 while archiving"), compareP99(run.live, run.cycles)),
    archiveFigure(
      on("time to archive a 240 s result"),
      run.cycles.map((c) => c.archive[1] - c.archive[0]),
      run.cycles.map((c) => c.readMs),
    ),
  ];
}

function counts(run: DriverRun, bytes: number): string {
  const seconds = (side: "reference" | "archive") =>
    fmt(run.cycles.reduce((sum, c) => sum + (c[side][1] - c[side][0]), 0) / 1000);
  const pair = (samples: DriverRun["me"]) =>
    (["archive", "reference"] as const)
      .map(
        (side) =>
          within(
            samples,
            run.cycles.map((c) => c[side]),
          ).length,
      )
      .join(" / ");
  return (
    `${run.driver}: ${run.cycles.length} archives of ${fmt(bytes / 1e6)} MB, ${seconds("archive")} s ` +
    `archiving and ${seconds("reference")} s without; samples while archiving / without: GET /api/me ` +
    `${pair(run.me)}, webhooks ${pair(run.webhooks)}, live events ${pair(run.live)}; ` +
    `${run.failedRequests} load requests failed; ${run.skippedRequests} were not sent because ` +
    `${MAX_IN_FLIGHT} of their kind were still unanswered (the backend behind the load).`
  );
}

const method = (settings: BenchSettings) => [
  "The built backend (`node dist/index.js`) on a fresh PGlite folder, then on a fresh Postgres " +
    "database, against the platform emulator (48 kHz stereo WAV; a 240 s result is ~46 MB) served " +
    "from the benchmark's own process. A steady open-loop load runs throughout: GET /api/me every " +
    `${PROBE_EVERY_MS} ms whether or not the last was answered, a ${SHORT_SECONDS} s task submitted ` +
    `every ${SUBMIT_EVERY_MS} ms (its three webhooks, and the live event each causes on an open ` +
    "/api/events stream), and a read of the long task being followed every " +
    `${WATCH_EVERY_MS} ms. The load's tasks end in failure on the platform (the emulator plans ` +
    "each with the failure rate set as it is submitted): they bring their webhooks and events, " +
    "and nothing to archive, so the reference windows have no archiving at all.",
  "Cycles, after " +
    `${WARMUP_MS / 1000} s of load and the archive of one ${WARM_UP_SECONDS} s result, not counted ` +
    "(the archive path's first run loads and compiles its code): the load runs alone, then a " +
    "240 s task is submitted and the load goes on while the platform makes it and the archiver " +
    "comes to it (together the reference window, made about as long as the last archive), then it is archived (the measured window: the archiver's first request " +
    "for its file to the task reading `archived`), then its WAV is read once and " +
    `${SETTLE_MS / 1000} s pass, outside both windows. Windows alternate, so a drift of the ` +
    `machine reaches both sides alike. At least ${CYCLES.min} cycles, then more until every ` +
    `metric has ${MIN_SAMPLES} samples on each side, at most ${CYCLES.max}, and none begun ` +
    `${settings.archiveBudgetMs / 1000} s after the backend's start (BENCH_ARCHIVE_SECONDS): the ` +
    "rule counts samples, never reads them.",
  "The verdict: the p99 over every sample of every archive, pooled, against twice the p99 over " +
    "every sample of every reference window, pooled. With 200 or more samples a p99 is the third " +
    "largest or beyond, so one GC or scheduler pause cannot decide it alone; each cycle's own " +
    "ratio is shown for its spread, but a cycle holds a few dozen webhooks, so its p99 is about " +
    "its maximum, and a median of those would be as noisy as the single round it replaces. " +
    "Webhook delivery: the emulator's send to the backend's answer; live delay: the send to the " +
    "event's frame on the stream. Time to archive: the median of the measured windows, beside " +
    "the median read of the same WAV from the emulator's server, read to the end, one after " +
    "each archive under the same load.",
  "The long results' WAV is made once by an emulator of its own before any backend starts, and " +
    "every long result is then served from memory: made on request, its CPU would fall into the " +
    "process that times the probes, in the measured windows only.",
];
