import { testDefaults, workspaceSource } from "@overture/vitest-config";
import { defineConfig } from "vitest/config";

// Core's own tests (the CLI imports @overture/core by name) run against src/, never dist/: the
// pack test rebuilds dist/ while the other files run. `*.test-d.ts` are type tests: tsc checks
// them under core's tsconfig (strict, exactOptionalPropertyTypes) and each is reported as a test.
export default defineConfig({
  ...workspaceSource,
  test: {
    ...testDefaults,
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
