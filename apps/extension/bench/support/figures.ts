// The figures of the listening bench: each beside its same-run reference and, where issue 14
// sets one, its goal. Written to bench-results/listening.json, which the backend's `pnpm bench`
// folds into BENCHMARKS.md (apps/backend/bench/suites/listening.ts reads this shape).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One figure of bench-results/listening.json (the backend's `pnpm bench` folds it in). */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  reference: { name: string; value: number };
  /** The goal, where it sets one: at most `max` (at least, where the text says ≥). */
  target?: { text: string; max: number; met: boolean };
}
const figures: Figure[] = [];
export const note = (figure: Omit<Figure, "target">, max?: number, atLeast?: number) => {
  const target =
    atLeast !== undefined
      ? { text: `≥ ${atLeast} ${figure.unit}`, max: atLeast, met: figure.value >= atLeast }
      : max === undefined
        ? undefined
        : { text: `≤ ${max} ${figure.unit}`, max, met: figure.value <= max };
  figures.push({ ...figure, ...(target ? { target } : {}) });
  console.info(
    `[bench] ${figure.name}: ${figure.value.toFixed(1)} ${figure.unit} ` +
      `(reference, ${figure.reference.name}: ${figure.reference.value.toFixed(1)} ${figure.unit})` +
      (target ? ` target ${target.text}: ${target.met ? "met" : "MISSED"}` : ""),
  );
};
/** Issue 14's goals. */
export const POPUP_MAX_KB = 100;
export const FIRST_SOUND_MAX_MS = 300;
export const PER_MINUTE_MAX_MB = 1.5;
/** Issue 31's: first track card within this many times the shell's first paint, … */
export const FIRST_CARD_MAX_RATIO = 1.2;
/** … first sound within this share of the old whole-file path, … */
export const FIRST_SOUND_MAX_RATIO = 0.3;
/** … and at least this many tracks visible with the player open. */
export const ROWS_VISIBLE_MIN = 6;

/** Writes every figure noted so far to `dir`/listening.json. */
export function writeFigures(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "listening.json"), `${JSON.stringify(figures, null, 2)}\n`);
}
