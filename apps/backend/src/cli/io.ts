import type { Config } from "../env/env.ts";
import { checkEnvironment } from "../env/check.ts";
import { createLogger, type Logger } from "../lib/logger.ts";

/** Where a command reads its environment and writes: the process, or a test's capture. */
export interface CliIo {
  env?: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
}

export const processIo: CliIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

/** Exit codes: 0 done, 1 the work or a check failed, 2 the command line or configuration is wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/**
 * A command that cannot do its work for a reason the operator can act on (a missing data folder,
 * a folder in use): `runCli` prints the message alone and exits 1, with no stack trace.
 */
export class CommandFailed extends Error {
  override readonly name = "CommandFailed";
}

/** The parsed configuration, or undefined after printing every problem to stderr. */
export function configOrReport(io: CliIo): Config | undefined {
  const check = checkEnvironment(io.env);
  if (check.config) return check.config;
  io.err("Invalid configuration:");
  for (const problem of check.problems) io.err(`  - ${problem}`);
  io.err(
    "Run `overture-backend check-config` for a full report; docs/self-hosting.md lists every variable.",
  );
  return undefined;
}

/** Logs of maintenance commands go to stderr (JSON), so stdout carries only the command's answer. */
export function stderrLogger(config: Config, io: CliIo): Logger {
  return createLogger(config.logLevel, {
    write: (line: string) => {
      io.err(line.trimEnd());
    },
  });
}
