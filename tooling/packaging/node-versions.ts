// Test-only: the Node versions the published packages are tested on. The one running the tests,
// and the others fetched from the npm registry as the `node` package (`npx -y node@22`), which
// ships each version's binary in a platform package; npx keeps them in its cache.
import { tmpdir } from "node:os";
import { runCommand } from "./command.ts";

/** Node majors the packed packages are tested on; their `engines` must name exactly these. */
export const TESTED_NODE_MAJORS = [20, 22, 24] as const;

/** A Node binary and its version. */
export interface NodeRuntime {
  readonly major: number;
  readonly version: string;
  readonly path: string;
}

/**
 * The Node of `major`: this process's when it is that major, otherwise the npm package
 * `node@<major>` fetched with npx (minutes the first time, then from npx's cache). Throws when it
 * cannot be fetched: a version the packages claim is never skipped in silence.
 */
export async function nodeRuntime(major: number): Promise<NodeRuntime> {
  if (Number(process.versions.node.split(".")[0]) === major) {
    return { major, version: process.version, path: process.execPath };
  }
  const result = await runCommand(
    "npx",
    ["-y", `node@${major}`, "-p", 'process.execPath + "\\n" + process.version'],
    { cwd: tmpdir(), timeoutMs: 600_000 },
  );
  const [path = "", version = ""] = result.stdout.trim().split("\n");
  if (result.code !== 0 || !version.startsWith(`v${major}.`)) {
    throw new Error(`npx -y node@${major} failed (exit ${result.code}):\n${result.stderr}`);
  }
  return { major, version, path };
}

/** The majors a simple `engines.node` range names: `^20.19.0 || ^22.12.0 || ^24.0.0` → 20, 22, 24. */
export function enginesMajors(range: string): number[] {
  return range.split("||").map((part) => Number(/\d+/.exec(part)?.[0]));
}
