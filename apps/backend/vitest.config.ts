import { testDefaults } from "@overture/vitest-config";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { ...testDefaults, globalSetup: ["test/support/global-setup.ts"] },
});
