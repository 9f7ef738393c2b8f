import { basename, join } from "node:path";
import { testDefaults, workspaceSource } from "@overture/vitest-config";
import { defineConfig } from "vitest/config";

// The browser tests: real Chromium, the built extension, the backend and the emulator on real
// 127.0.0.1 ports. One file at a time (each starts a browser and a stack).
const reportDir = process.env.OVERTURE_TEST_REPORT_DIR;

export default defineConfig({
  ...workspaceSource,
  test: {
    ...testDefaults,
    include: ["e2e/**/*.e2e.test.ts"],
    environment: "node",
    globalSetup: ["./e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // A step that goes browser → background → backend → platform can take seconds on a loaded
    // 2-core CI machine; expect.poll's default second once failed "choose a token" there.
    expect: { poll: { timeout: 15_000 } },
    // Its own JSON report, so it does not overwrite the unit tests' one.
    reporters: reportDir
      ? [
          "default",
          ["json", { outputFile: join(reportDir, `${basename(process.cwd())}-e2e.json`) }],
        ]
      : ["default"],
  },
});
