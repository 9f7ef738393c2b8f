/** The stamp's name inside dist/; leave it out of the package (`"files": ["!dist/.build-inputs"]`). */
export declare const STAMP: ".build-inputs";
/** A hash of the files under `inputs` (relative to `root`), by relative path and content. */
export declare function hashInputs(root: string, inputs: readonly string[]): string;
/** Builds `root`/dist with `build(outDir)` unless its stamp matches the inputs' hash. */
export declare function buildDist(options: {
  root: string;
  inputs: readonly string[];
  build: (outDir: string) => void | Promise<void>;
  log?: (line: string) => void;
}): Promise<"built" | "fresh">;
