import { defineConfig } from "tsup";

// One self-contained ESM file per entry, third-party dependencies bundled in too: resolving and
// loading several hundred small files of node_modules was most of the start-up time. Kept external:
// PGlite (it loads its .wasm and data files next to its own module) and pg's optional native
// binding. CommonJS dependencies get a `require` from the banner.
export default defineConfig({
  // The analysis thread starts from a file of its own (services/archive/analysis-thread.ts).
  entry: {
    index: "src/index.ts",
    cli: "src/cli.ts",
    "analyse-worker": "src/services/archive/analyse-worker.ts",
  },
  format: "esm",
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  splitting: true,
  sourcemap: true,
  noExternal: [/^(?!@electric-sql\/pglite|pg-native)/],
  banner: {
    js: 'import { createRequire as __overtureRequire } from "node:module"; const require = __overtureRequire(import.meta.url);',
  },
});
