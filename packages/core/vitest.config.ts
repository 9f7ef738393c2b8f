import { testDefaults, workspaceSource } from "@overture/vitest-config";
import { defineConfig } from "vitest/config";

// Core's own tests (the CLI imports @overture/core by name) run against src/, never dist/: the
// pack test rebuilds dist/ while the other files run.
export default defineConfig({ ...workspaceSource, test: { ...testDefaults } });
