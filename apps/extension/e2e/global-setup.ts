// Builds the Chrome extension before the browser tests, so they always load the current source.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  execFileSync("npx", ["wxt", "build", "-b", "chrome"], {
    cwd: resolve(import.meta.dirname, ".."),
    stdio: "inherit",
  });
}
