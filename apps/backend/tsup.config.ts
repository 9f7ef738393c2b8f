import { defineConfig } from "tsup";

// One self-contained ESM file per entry; workspace packages (@overture/*) are bundled in so
// `node dist/index.js` runs without tsx. Third-party dependencies stay external (node_modules).
export default defineConfig({
  entry: ["src/index.ts", "src/main-job.ts", "src/demo.ts"],
  format: "esm",
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  splitting: true,
  sourcemap: true,
  noExternal: [/^@overture\//],
});
