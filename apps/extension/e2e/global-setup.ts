// Builds the Chrome extension before the browser tests, so they always load the current source,
// built as it ships: vitest sets NODE_ENV=test, under which JSX compiles in its development form
// (larger, and with source paths; load-size.e2e.test.ts checks the shipped size).
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  execFileSync("npx", ["wxt", "build", "-b", "chrome"], {
    cwd: resolve(import.meta.dirname, ".."),
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
}
