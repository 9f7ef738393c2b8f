import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface RunningCli {
  /** Everything the command printed up to its list of access tokens. */
  banner: string;
  /** The printed `base_url`. */
  url: string;
  stop(): void;
}

/**
 * Starts the `platform-emulator` command from source (core's too, through tsx, so a stale dist
 * cannot hide a change) and resolves once it has printed its banner. The packed bin is checked
 * by test/pack/pack.test.ts.
 */
export async function startCli(args: readonly string[]): Promise<RunningCli> {
  const cli = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    ["--conditions=@overture/source", "--import", "tsx", cli, ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const stop = () => {
    child.kill("SIGTERM");
  };
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("access tokens"))
          setImmediate(() => {
            resolve(out);
          });
      });
      child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.once("exit", (code) => {
        reject(new Error(`exited ${String(code)}: ${out}`));
      });
    });
    return { banner, url: /base_url\s+(\S+)/.exec(banner)?.[1] ?? "", stop };
  } catch (error) {
    stop();
    throw error;
  }
}
