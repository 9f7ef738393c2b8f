import { defineConfig } from "tsup";

// dist runs on plain node 20 and is what the package exports and the bin run. @overture/core is
// bundled in from its source (the `@overture/source` condition, as every workspace resolves it):
// the emulator plays the platform, so it pins the wire rules it was tested with and installs
// without core; npm dependencies stay external (tsup would bundle core anyway, a devDependency;
// `noExternal` says it on purpose, and the pack test checks no shipped file imports core).
// Types are emitted for the two library entries.
export default defineConfig({
  entry: ["src/index.ts", "src/server.ts", "src/cli.ts"],
  format: ["esm"],
  target: "node20",
  platform: "node",
  clean: true,
  sourcemap: true,
  dts: { entry: ["src/index.ts", "src/server.ts"] },
  noExternal: [/^@overture\//],
  esbuildOptions(options) {
    options.conditions = ["@overture/source", "module"];
  },
});
