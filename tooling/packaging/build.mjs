// A package's dist/ rebuilt only when its inputs changed, and never left half-written.
//
// Why: `pnpm pack` runs each published package's `prepack` build, and the pack tests run while
// other turbo tasks read dist/ (a bundler, another pack test packing the same package). So:
//   - fresh: a hash of the inputs is kept in dist/.build-inputs; when it matches, nothing is
//     written (under turbo, `^build` already built it, so a pack test's prepack is a no-op);
//   - atomic: otherwise the build writes a private folder (dist-next-<pid>), which replaces dist/
//     by two renames, so a reader sees the old files or the new ones; a module removed from
//     src/ does not linger;
//   - concurrent: two builds of the same inputs both succeed; the later one keeps the dist/ the
//     earlier one put in place.
import { createHash } from "node:crypto";
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import process from "node:process";

/** The stamp's name inside dist/; leave it out of the package (`"files": ["!dist/.build-inputs"]`). */
export const STAMP = ".build-inputs";

/**
 * A hash of the files under `inputs` (files or folders, relative to `root`; node_modules, dist
 * and dot-folders skipped), by relative path and content.
 * @param {string} root
 * @param {readonly string[]} inputs
 * @returns {string}
 */
export function hashInputs(root, inputs) {
  const hash = createHash("sha256");
  const files = inputs.flatMap((input) => walk(join(root, input))).sort();
  for (const file of files) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** @param {string} path @returns {string[]} */
function walk(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => !/^(node_modules|dist.*|\..*)$/.test(entry.name))
    .flatMap((entry) => walk(join(path, entry.name)));
}

/**
 * Builds `root`/dist with `build(outDir)` unless its stamp matches the inputs' hash.
 * @param {{ root: string, inputs: readonly string[], build: (outDir: string) => void | Promise<void>, log?: (line: string) => void }} options
 * @returns {Promise<"built" | "fresh">}
 */
export async function buildDist({ root, inputs, build, log = console.log }) {
  const dist = join(root, "dist");
  const hash = hashInputs(root, inputs);
  if (readStamp(dist) === hash) {
    log("dist/ is up to date with its inputs: not rebuilt");
    return "fresh";
  }
  const next = join(root, `dist-next-${process.pid}`);
  const old = join(root, `dist-old-${process.pid}`);
  rmSync(next, { recursive: true, force: true });
  try {
    await build(next);
    writeFileSync(join(next, STAMP), `${hash}\n`);
    try {
      renameSync(dist, old);
    } catch (error) {
      if (!isCode(error, "ENOENT")) throw error; // no dist yet, or another build moved it
    }
    try {
      renameSync(next, dist);
    } catch (error) {
      // Another build of the same inputs put its dist/ in place between the two renames.
      if (!isCode(error, "ENOTEMPTY") && !isCode(error, "EEXIST")) throw error;
    }
  } finally {
    rmSync(next, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return "built";
}

/** @param {string} dist @returns {string | undefined} */
function readStamp(dist) {
  try {
    return readFileSync(join(dist, STAMP), "utf8").trim();
  } catch {
    return undefined;
  }
}

/** @param {unknown} error @param {string} code */
function isCode(error, code) {
  return typeof error === "object" && error !== null && "code" in error && error.code === code;
}
