import preact from "@preact/preset-vite";
import { defineConfig } from "wxt";

export default defineConfig({
  srcDir: "src",
  vite: () => ({ plugins: [preact()] }),
  manifest: { name: "Overture" },
});
