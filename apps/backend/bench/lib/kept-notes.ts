/**
 * BENCHMARKS.md is written anew by every full run, except its notes: written by hand between
 * these two markers (the figures behind rules in the code's comments, and how they were
 * measured), and carried from the previous document into the next as they are.
 */
export const NOTES_START = "<!-- notes: written by hand; every run of pnpm bench keeps them -->";
export const NOTES_END = "<!-- end of notes -->";

/** The notes of a previous BENCHMARKS.md, markers included; undefined when it has none. */
export function keptNotes(previous: string | undefined): string | undefined {
  const start = previous?.indexOf(NOTES_START) ?? -1;
  const end = start < 0 ? -1 : (previous?.indexOf(NOTES_END, start) ?? -1);
  if (start < 0 || end < 0) return undefined;
  return previous?.slice(start, end + NOTES_END.length);
}
