import { testDefaults, workspaceSource } from "@overture/vitest-config";
import { defineConfig } from "vitest/config";

// Tests run the source of the emulator and of @overture/core, never dist/ (the pack test rebuilds it).
export default defineConfig({ ...workspaceSource, test: { ...testDefaults } });
