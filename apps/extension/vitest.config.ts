import preact from "@preact/preset-vite";
import { testDefaults, workspaceSource } from "@overture/vitest-config";
import { defineConfig } from "vitest/config";
import { WxtVitest } from "wxt/testing/vitest-plugin";

export default defineConfig({
  ...workspaceSource,
  plugins: [WxtVitest(), preact()],
  test: {
    ...testDefaults,
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    environment: "happy-dom",
    setupFiles: ["./src/testing/setup.ts"],
  },
});
