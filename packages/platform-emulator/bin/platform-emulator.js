#!/usr/bin/env node
// Runs the built CLI when present (plain node), else the TypeScript source through tsx.
// PLATFORM_EMULATOR_FROM_SOURCE=1 forces the source (tests use it so a stale dist cannot hide a change).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
if (existsSync(dist) && process.env.PLATFORM_EMULATOR_FROM_SOURCE !== "1") {
  await import(dist);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/cli.ts", import.meta.url).href);
}
