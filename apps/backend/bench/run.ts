// `pnpm bench`: every measurement of the benchmarks issue beside its same-run reference, on this
// machine, bounded in time, loopback only. Prints a table, rewrites BENCHMARKS.md at the
// repository root (full runs only; the notes written by hand at its end are kept) and keeps the
// raw results in bench-results/latest.json.
//
//   pnpm bench                                  (from the root: builds first, via turbo)
//   BENCH_ONLY=1,3 pnpm --filter @overture/backend bench
//   BENCH_ROUNDS, BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_STREAMS, … (see suites/settings.ts)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { renderDocument } from "./lib/document.ts";
import { keptNotes } from "./lib/kept-notes.ts";
import { cpuPressureSince, cpuStallMicros, describeMachine, loadNow } from "./lib/machine.ts";
import { BACKEND_DIR } from "./lib/procs.ts";
import { consoleTable, type Section } from "./lib/report.ts";
import { archivingSuite } from "./suites/archiving.ts";
import { extensionSuite } from "./suites/extension.ts";
import { intakeSuite } from "./suites/intake.ts";
import { listeningSuite } from "./suites/listening.ts";
import { liveSuite } from "./suites/live.ts";
import { pollingSuite } from "./suites/polling.ts";
import { readSettings, type BenchSettings } from "./suites/settings.ts";
import { startupSuite } from "./suites/startup.ts";
import { verifySuite } from "./suites/verify.ts";

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const log = (message: string) => {
  console.log(`[${elapsed()}] ${message}`);
};

const SUITES: { ids: string[]; title: string; run: (s: BenchSettings) => Promise<Section[]> }[] = [
  { ids: ["3"], title: "signature verification", run: verifySuite },
  { ids: ["1", "2"], title: "webhook intake and duplicate storm", run: intakeSuite },
  { ids: ["4"], title: "live events and idle streams", run: liveSuite },
  { ids: ["5"], title: "polling cost", run: pollingSuite },
  { ids: ["6"], title: "extension size and popup start", run: extensionSuite },
  { ids: ["7"], title: "start-up and footprint", run: startupSuite },
  { ids: ["8"], title: "extension listening (issue 14)", run: listeningSuite },
  { ids: ["9"], title: "archiving a 240 s result", run: archivingSuite },
];

const settings = readSettings(log);
const machine = await describeMachine();
log(
  `${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB, Node ${machine.node}, ` +
    `Postgres ${machine.postgres}, load ${machine.loadAtStart.join(" ")}`,
);

const sections: Section[] = [];
const failures: string[] = [];
const runStall = cpuStallMicros();
const pressures: Record<string, number | undefined> = {};
for (const suite of SUITES) {
  if (settings.only.size > 0 && !suite.ids.some((id) => settings.only.has(id))) continue;
  log(`${suite.ids.join(", ")}: ${suite.title} (load ${loadNow().join(" ")})`);
  const stall = cpuStallMicros();
  const since = performance.now();
  try {
    const produced = await suite.run(settings);
    const pressure = cpuPressureSince(stall, since);
    for (const section of produced) {
      pressures[section.id] = pressure;
      if (pressure !== undefined) {
        section.notes.push(
          `CPU pressure while this ran: some task was waiting for a CPU ${pressure} % of the time ` +
            "(Linux PSI, /proc/pressure/cpu). The benchmark's own processes (load generator, " +
            "server, database) compete for the 2 cores and count here too.",
        );
      }
    }
    sections.push(...produced);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    failures.push(`${suite.title}: ${message}`);
    log(`FAILED ${suite.title}: ${message}`);
    for (const id of suite.ids) {
      sections.push({
        id,
        title: suite.title,
        figures: [],
        notes: [`This benchmark failed in this run: ${message.split("\n")[0] ?? ""}`],
      });
    }
  }
}
sections.sort((a, b) => a.id.localeCompare(b.id));

const totalSeconds = (performance.now() - started) / 1000;
const loadAtEnd = loadNow();
const cpuPressure = cpuPressureSince(runStall, started);
console.log(`\n${consoleTable(sections)}\n`);
log(`done (load ${loadAtEnd.join(" ")})`);

const results = {
  machine,
  loadAtEnd,
  totalSeconds,
  settings: { ...settings, only: [...settings.only] },
  sections,
};
const resultsDir = join(BACKEND_DIR, "bench-results");
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
const target = resolve(BACKEND_DIR, "../../BENCHMARKS.md");
const document = renderDocument({
  machine,
  loadAtEnd,
  cpuPressure,
  totalSeconds,
  sections,
  settings,
  // The notes written by hand into the previous document: a run keeps them (kept-notes.ts).
  notes: keptNotes(existsSync(target) ? readFileSync(target, "utf8") : undefined),
});
if (settings.only.size === 0 || process.env.BENCH_WRITE === "1") {
  writeFileSync(target, document);
  log(`wrote ${target} and bench-results/latest.json`);
} else {
  writeFileSync(join(resultsDir, "partial.md"), document);
  log("partial run (BENCH_ONLY): BENCHMARKS.md left as is; see bench-results/partial.md");
}
if (failures.length > 0) process.exitCode = 1;
