import { cpSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";

// Like the backend's build: one ESM file per entry with dependencies bundled (start-up time is
// mostly module resolution otherwise), PGlite kept external because it loads its .wasm and data
// files next to its own module. CommonJS dependencies get a `require` from the banner.
// The workspace packages are bundled from their source (the `@overture/source` condition, as
// every workspace resolves them): this build needs none of their dist/ folders, so `pnpm start`
// runs it at once instead of after core's and the emulator's declaration builds (turbo.json).
export default defineConfig({
  // The backend's analysis thread starts from a file of its own, beside the chunk that starts it.
  entry: ["src/main-job.ts", "src/demo.ts", "src/analyse-worker.ts"],
  format: "esm",
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  splitting: true,
  sourcemap: true,
  noExternal: [/^(?!@electric-sql\/pglite|pg-native)/],
  esbuildOptions(options) {
    options.conditions = ["@overture/source", "module"];
  },
  // The backend applies its SQL migrations from a `drizzle/` folder it looks for next to its
  // code; bundled here, that code lives in dist/, so the folder is copied beside it.
  onSuccess: () => {
    cpSync(fileURLToPath(new URL("../backend/drizzle", import.meta.url)), "dist/drizzle", {
      recursive: true,
    });
    return Promise.resolve();
  },
  banner: {
    js: 'import { createRequire as __overtureRequire } from "node:module"; const require = __overtureRequire(import.meta.url);',
  },
});
