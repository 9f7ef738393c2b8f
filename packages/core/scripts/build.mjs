// Builds dist/: the library with its declarations, then the overture-webhooks CLI into dist/cli.
// Through buildDist (@overture/packaging/build): skipped when dist/ already matches the inputs
// below, and otherwise written aside and swapped in, so the pack tests (whose `prepack` runs
// this) never leave dist/ half-written for a workspace reading it at the same moment.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { buildDist } from "@overture/packaging/build";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const run = (...args) =>
  execFileSync(process.execPath, [tsc, ...args], { cwd: root, stdio: "inherit" });

await buildDist({
  root,
  inputs: [
    "src",
    "cli",
    "tsconfig.json",
    "tsconfig.build.json",
    "package.json",
    "scripts",
    "../../tooling/tsconfig",
    "../../pnpm-lock.yaml",
  ],
  build(outDir) {
    // Emit only: `typecheck` checks the same sources, and checking again here held up the
    // extension's build, and so `pnpm start`, by seconds (the output is the same either way).
    run("-p", "tsconfig.build.json", "--outDir", outDir, "--noCheck");
    // The CLI imports @overture/core by name; `typecheck` checks it against the source, so its
    // emit here needs no declarations of the library being built beside it.
    run("-p", "cli/tsconfig.build.json", "--outDir", `${outDir}/cli`, "--noCheck");
  },
});
