import { testDefaults, workspaceSource } from "@overture/vitest-config";
import { defineConfig } from "vitest/config";

// `pnpm bench:listening` here: the listening numbers of issue 14 in real Chromium against the
// real stack (bench/listening.ts). A measurement, not a test: it prints figures and asserts
// nothing timed. The root's `pnpm bench` runs it as item 8 of BENCHMARKS.md
// (apps/backend/bench/suites/listening.ts), so it is no `bench` script of its own.
export default defineConfig({
  ...workspaceSource,
  test: {
    ...testDefaults,
    include: ["bench/*.ts"],
    environment: "node",
    globalSetup: ["./e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 600_000,
    // The same wait as the e2e tests: on a loaded 2-core machine "choose a token" takes over 1 s.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 180_000,
  },
});
