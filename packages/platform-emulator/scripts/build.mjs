// Builds dist/ with tsup (tsup.config.ts) through buildDist (@overture/packaging/build): skipped
// when dist/ already matches the inputs below (core's source among them: it is bundled in), and
// otherwise written aside and swapped in, so the pack test (whose `prepack` runs this) never
// leaves dist/ half-written for a workspace reading it at the same moment.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDist } from "@overture/packaging/build";

const root = fileURLToPath(new URL("..", import.meta.url));

await buildDist({
  root,
  inputs: [
    "src",
    "tsup.config.ts",
    "tsconfig.json",
    "package.json",
    "scripts",
    "../core/src",
    "../core/package.json",
    "../../tooling/tsconfig",
    "../../pnpm-lock.yaml",
  ],
  build(outDir) {
    execFileSync(join(root, "node_modules", ".bin", "tsup"), ["--out-dir", outDir], {
      cwd: root,
      stdio: "inherit",
    });
  },
});
