import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { BACKEND_DIR } from "../lib/procs.ts";
import { figure, type Section } from "../lib/report.ts";
import { fmt } from "../lib/stats.ts";
import type { BenchSettings } from "./settings.ts";

/**
 * Item 8: issue 14's listening numbers, measured by the extension's own benchmark
 * (apps/extension/bench/listening.ts: real Chromium, the built extension, the backend and the
 * emulator, bytes counted at a relay in front of the backend). Run from here, so `pnpm bench`
 * measures them in the same run as everything else and in a known order.
 */
const EXTENSION_DIR = resolve(BACKEND_DIR, "../extension");
const RESULTS = join(EXTENSION_DIR, "bench-results/listening.json");

/** A figure as listening.ts writes it. */
interface Measured {
  name: string;
  value: number;
  unit: string;
  reference: { name: string; value: number };
  target?: { text: string; max: number; met: boolean };
}

function runListening(log: (message: string) => void): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn("pnpm", ["run", "bench:listening"], {
      cwd: EXTENSION_DIR,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let tail = "";
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4_000);
      for (const line of text.split("\n")) if (line.includes("[bench]")) log(`  ${line.trim()}`);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("error", fail);
    child.once("exit", (code) => {
      if (code === 0) done();
      else fail(new Error(`the listening benchmark exited with ${String(code)}: ${tail}`));
    });
  });
}

export async function listeningSuite(settings: BenchSettings): Promise<Section[]> {
  // Removed first: the figures read below are this run's or none.
  rmSync(RESULTS, { force: true });
  await runListening((message) => {
    settings.log(message);
  });
  if (!existsSync(RESULTS)) throw new Error(`the listening benchmark wrote no ${RESULTS}`);
  const measured = JSON.parse(readFileSync(RESULTS, "utf8")) as Measured[];
  const figures = measured.map((m) =>
    figure(m.name, m.value, m.unit, {
      reference: m.reference,
      better: "lower",
      ...(m.target
        ? {
            target: m.target.text,
            met: m.target.met,
            ...(m.target.met
              ? {}
              : {
                  shortBy:
                    m.target.max > 0
                      ? `${fmt(m.value / m.target.max)}× the limit`
                      : `${fmt(m.value)} ${m.unit} over`,
                }),
          }
        : {}),
    }),
  );
  return [
    {
      id: "8",
      title: "Extension: listening (issue 14)",
      figures,
      notes: [
        "Measured by apps/extension/bench/listening.ts (run alone: `pnpm --filter @overture/extension " +
          "bench:listening`), in headless Chromium with the built extension against the backend and the " +
          "platform emulator on 127.0.0.1. Bytes are every byte the backend sends the browser (HTTP heads " +
          "and bodies, after compression), counted at a TCP relay in front of it; audio bytes are the " +
          "Content-Length of its `audio/*` answers. The popup opens on 50 archived tracks submitted while " +
          "it was closed: the first open also catches up on their live events (and stays open until the " +
          "stream has applied them), a later open is the steady case. First sound: from the click on " +
          "Play to the first animation frame at which the `<audio>` playhead has moved. Per minute: " +
          "everything fetched while a 240 s track plays to its end at 16× speed, ÷ 4. References: " +
          "the old path (the WAV files, sent whole through the background), measured in the same run.",
      ],
    },
  ];
}
