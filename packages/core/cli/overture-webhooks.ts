#!/usr/bin/env node
// The `overture-webhooks` command: wires the CLI to the process. See main.ts and --help.
import { readFile } from "node:fs/promises";
import { run } from "./main.ts";

const code = await run(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  readFile: async (path) => new Uint8Array(await readFile(path)),
  fetch: globalThis.fetch,
  now: Date.now,
  // `listen` stops cleanly on Ctrl-C; a second Ctrl-C ends the process at once.
  interrupts: () => {
    const interrupted = new AbortController();
    process.once("SIGINT", () => {
      interrupted.abort();
      process.once("SIGINT", () => process.exit(130));
    });
    process.once("SIGTERM", () => {
      interrupted.abort();
    });
    return interrupted.signal;
  },
});
process.exitCode = code;
