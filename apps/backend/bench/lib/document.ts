import type { BenchSettings } from "../suites/settings.ts";
import type { Machine } from "./machine.ts";
import { isNarrow, markdownTable, roundsText, type Figure, type Section } from "./report.ts";
import { fmt } from "./stats.ts";

/** BENCHMARKS.md: machine, every figure beside its reference (ratios first), targets, method. */
export function renderDocument(input: {
  machine: Machine;
  loadAtEnd: number[];
  /** Share of the run's wall time during which tasks waited for a CPU (PSI), if known. */
  cpuPressure: number | undefined;
  totalSeconds: number;
  sections: readonly Section[];
  settings: BenchSettings;
  /** The previous document's notes (kept-notes.ts), carried over as they are. */
  notes?: string | undefined;
}): string {
  const { machine, sections } = input;
  const figures = sections.flatMap((s) =>
    s.figures.map((f) => ({ ...f, name: `${s.id}. ${f.name}` })),
  );
  const targets = figures.filter((f) => f.met !== undefined);
  const missed = targets.filter((f) => f.met === false);
  const narrow = targets.filter(isNarrow);
  const out: string[] = [];
  out.push(
    "# Benchmarks",
    "",
    "Written by `pnpm bench` (apps/backend/bench/run.ts); do not edit by hand, except the notes at the end,",
    "which every run keeps. Every figure stands beside a reference measured in the same run on the same",
    "machine, and the **ratio comes first**: these machines are shared and noisy, so absolute figures move",
    "from run to run while ratios hold. Raw results of the last run: `apps/backend/bench-results/latest.json`",
    "(not committed).",
    "",
    `Run of ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${fmt(input.totalSeconds / 60)} minutes ` +
      "(benchmarks only; turbo builds the backend, its dependencies and the extension first).",
    "",
    "## Machine",
    "",
    "| | |",
    "|---|---|",
    `| CPU | ${machine.cpu}, ${machine.cores} cores |`,
    `| RAM | ${machine.ramGb} GB |`,
    `| OS | ${machine.os} |`,
    `| Node | ${machine.node} |`,
    `| Postgres | ${machine.postgres} (the machine's server, 127.0.0.1:5432); PGlite 0.5.16 embedded |`,
    `| Load average (1, 5, 15 min) | start ${machine.loadAtStart.join(", ")}; end ${input.loadAtEnd.join(", ")} |`,
    `| CPU pressure during the run | ${input.cpuPressure === undefined ? "unknown (no /proc/pressure/cpu)" : `some task waited for a CPU ${input.cpuPressure} % of the time (Linux PSI)`} |`,
    `| Open files per process | ${machine.fdLimit} |`,
    "",
    "## Targets",
    "",
    `${targets.length - missed.length} of ${targets.length} met` +
      (narrow.length > 0 ? `, ${narrow.length} of them only by the median of rounds.` : "."),
    "",
    ...targets.map(
      (f) =>
        `- ${!f.met ? "**missed**" : isNarrow(f) ? `met in ${roundsText(f)}` : "met"}: ${f.name} — ${fmt(f.value)} ${f.unit}` +
        `${f.ratio !== undefined ? ` (×${fmt(f.ratio)} of ${f.reference?.name ?? "reference"})` : ""}, target ${f.target ?? ""}`,
    ),
    "",
    ...(missed.length > 0
      ? [
          "## Missed targets: by how much, and why",
          "",
          ...missed.map(
            (f) =>
              `- **${f.name}**: ${fmt(f.value)} ${f.unit} against ${f.target ?? "its target"}${f.shortBy ? ` (${f.shortBy})` : ""}. ${f.why ?? ""}`,
          ),
          "",
        ]
      : []),
    ...(narrow.length > 0
      ? [
          "## Targets met only by the median: a rerun may miss them",
          "",
          ...narrow.map(
            (f) =>
              `- **${f.name}**: ${fmt(f.value)} ${f.unit} against ${f.target ?? "its target"}, met in ${roundsText(f)} ` +
              `(rounds: ${(f.runs ?? []).map((r) => fmt(r)).join(", ")} ${f.unit}). ${f.why ?? ""}`,
          ),
          "",
        ]
      : []),
    "## All figures",
    "",
    "Ratio = value ÷ same-run reference (for latency and memory, lower is better). Values are medians",
    "over interleaved rounds unless the section says otherwise.",
    "",
    markdownTable(figures),
    "",
  );
  for (const section of sections) {
    out.push(`## ${section.id}. ${section.title}`, "");
    if (section.figures.length > 0) out.push(markdownTable(section.figures), "");
    const perRound = roundsOnce(section.figures);
    if (perRound.length > 0) out.push(`Per round: ${perRound.join("; ")}.`, "");
    const withNotes = section.figures.filter((f) => f.note);
    if (withNotes.length > 0) {
      out.push(withNotes.map((f) => `${f.name}: ${f.note ?? ""}.`).join(" "), "");
    }
    for (const note of section.notes) out.push(note, "");
  }
  out.push(
    "## Settings of this run",
    "",
    "```",
    JSON.stringify({ ...input.settings, only: [...input.settings.only], log: undefined }, null, 1),
    "```",
    "",
  );
  if (input.notes) out.push(input.notes, "");
  return out.join("\n");
}

/**
 * Each measured value's rounds, once: figures that compare one value with several references
 * share its rounds, which are then named by the value (its name's prefix and unit).
 */
function roundsOnce(figures: readonly Figure[]): string[] {
  const groups = new Map<string, Figure[]>();
  for (const f of figures) {
    if (!f.runs || f.runs.length < 2) continue;
    const key = `${f.unit}|${f.runs.join(",")}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [Figure, ...Figure[]];
    const label = group.length > 1 ? `${first.name.split(": ")[0]} ${first.unit}` : first.name;
    return `${label}: ${(first.runs ?? []).map((r) => fmt(r)).join(", ")}`;
  });
}
