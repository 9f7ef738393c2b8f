// Shared vitest defaults. A workspace's vitest.config.ts spreads these into its own options.
import { basename, join } from "node:path";

/**
 * Workspace packages (`@overture/core`, the emulator) export their TypeScript source under the
 * custom condition `@overture/source` (the shared tsconfig's `customConditions` sets it for tsc).
 * Spread this into a vitest config so tests run that source, never a stale or half-rebuilt
 * `dist/`. The other conditions are vitest's own defaults for tests run in Node (`node`, then
 * `development`), for every environment, happy-dom included: vitest hands the same list to Node
 * for the dependencies it does not transform, and a `browser` or `module` condition here would
 * load a second copy of such a package (two Preacts: hooks fail with "reading '__H'").
 */
const conditions = ["@overture/source", "node", "development|production"];
export const workspaceSource = {
  resolve: { conditions },
  ssr: { resolve: { conditions } },
};

const reportDir = process.env.OVERTURE_TEST_REPORT_DIR;

/** @type {import("vitest/config").ViteUserConfig["test"]} */
export const testDefaults = {
  include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts"],
  // .ci/run reads these JSON reports to print one plain "N passed, N failed" line.
  reporters: reportDir
    ? ["default", ["json", { outputFile: join(reportDir, `${basename(process.cwd())}.json`) }]]
    : ["default"],
  testTimeout: 20_000,
  hookTimeout: 60_000,
};
