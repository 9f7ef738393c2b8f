import { defineConfig } from "tsup";

// dist runs on plain node: @overture/core (TypeScript source) is bundled in; npm deps stay external.
export default defineConfig({
  entry: ["src/index.ts", "src/server.ts", "src/cli.ts"],
  format: ["esm"],
  target: "node20",
  platform: "node",
  clean: true,
  sourcemap: true,
  noExternal: [/^@overture\//],
});
