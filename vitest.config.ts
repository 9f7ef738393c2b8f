import { testDefaults } from "@overture/vitest-config";
import { defineConfig } from "vitest/config";

// Checks of the repository as a whole (documentation links); each workspace runs its own tests.
export default defineConfig({
  test: { ...testDefaults, include: ["test/**/*.test.ts"] },
});
