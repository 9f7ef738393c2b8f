import { fmt } from "./stats.ts";

/**
 * One reported figure beside its same-run reference. `ratio` is value ÷ reference: above 1 means
 * more throughput, or more latency / memory, than the reference, as `better` says.
 */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  reference?: { name: string; value: number };
  ratio?: number;
  /** Which direction is better, for reading the ratio. */
  better?: "higher" | "lower";
  target?: string;
  met?: boolean;
  /** How far from the target, in words ("8.6× the limit"), when missed. */
  shortBy?: string;
  /** Why the target is missed on this machine, when it is (or when a round missed it). */
  why?: string;
  /** The value of each round (the figure is their median). */
  runs?: number[];
  /**
   * Whether each round alone met the target, when that can be judged. A median that meets the
   * target while a round did not is reported as met narrowly, so a rerun that misses it is no surprise.
   */
  roundsMet?: boolean[];
  note?: string;
}

export interface Section {
  id: string;
  title: string;
  figures: Figure[];
  /** Method, caveats and findings, one paragraph each (Markdown). */
  notes: string[];
}

export function figure(
  name: string,
  value: number,
  unit: string,
  extra: Omit<Figure, "name" | "value" | "unit"> = {},
): Figure {
  const ratio =
    extra.ratio ??
    (extra.reference && extra.reference.value !== 0 ? value / extra.reference.value : undefined);
  return { name, value, unit, ...extra, ...(ratio === undefined ? {} : { ratio }) };
}

const ratioText = (f: Figure) => (f.ratio === undefined ? "" : `×${fmt(f.ratio)}`);
const valueText = (f: Figure) => `${fmt(f.value)} ${f.unit}`;
const referenceText = (f: Figure) =>
  f.reference ? `${f.reference.name}: ${fmt(f.reference.value)} ${f.unit}` : "";
const metText = (f: Figure) =>
  f.met === undefined ? "" : !f.met ? "MISSED" : isNarrow(f) ? `met in ${roundsText(f)}` : "met";

/** Met by the median of its rounds while at least one round missed. */
export const isNarrow = (f: Figure) => f.met === true && (f.roundsMet ?? []).includes(false);

/** "2 of 3 rounds". */
export const roundsText = (f: Figure) =>
  `${(f.roundsMet ?? []).filter(Boolean).length} of ${(f.roundsMet ?? []).length} rounds`;

export function columns(f: Figure): string[] {
  return [f.name, ratioText(f), valueText(f), referenceText(f), f.target ?? "", metText(f)];
}

export const HEADERS = ["Measure", "Ratio", "Value", "Same-run reference", "Target", ""];

/** A fixed-width console table of every section. */
export function consoleTable(sections: readonly Section[]): string {
  const rows = sections.flatMap((s) => [[`${s.id}. ${s.title}`], ...s.figures.map(columns)]);
  const widths = HEADERS.map((h, i) =>
    Math.max(h.length, ...rows.filter((r) => r.length > 1).map((r) => (r[i] ?? "").length)),
  );
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  const out = [line(HEADERS), widths.map((w) => "-".repeat(w)).join("  ")];
  for (const row of rows) out.push(row.length === 1 ? `\n${row[0] ?? ""}` : line(row));
  return out.join("\n");
}

const cell = (text: string) => text.replaceAll("|", "\\|");

export function markdownTable(figures: readonly Figure[]): string {
  const lines = [`| ${HEADERS.join(" | ")} |`, `|${HEADERS.map(() => "---").join("|")}|`];
  for (const f of figures) lines.push(`| ${columns(f).map(cell).join(" | ")} |`);
  return lines.join("\n");
}
