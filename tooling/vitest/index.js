// Shared vitest defaults. A workspace's vitest.config.ts spreads these into its own options.
import { basename, join } from "node:path";

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
