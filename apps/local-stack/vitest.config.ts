import { testDefaults, workspaceSource } from "@overture/vitest-config";
import { defineConfig } from "vitest/config";

export default defineConfig({ ...workspaceSource, test: { ...testDefaults } });
