// Test-only: bundles the conformance subset from an installed package and runs it in Node, Deno,
// Bun, workerd and Chromium. The Deno, Bun and workerd binaries come from their npm packages
// (core's devDependencies); Chromium is the system's (CHROMIUM_PATH, default /usr/bin/chromium).
import { existsSync } from "node:fs";
import { cp, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { build } from "esbuild";
import { runCommand, type CommandResult } from "@overture/packaging/pack";

const require = createRequire(import.meta.url);

/** The conformance outcome one runtime printed. */
export interface Conformance {
  passed: number;
  failed: { name: string; detail?: string }[];
}

/** A runtime's binary, or why it cannot run here. */
export type Binary = { path: string } | { unavailable: string };

/** The binary an npm package ships in its platform package (no install script needed). */
export function npmBinary(pkg: string, platformPackage: string, file: string): Binary {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return {
      unavailable: `this test knows ${pkg}'s linux-x64 binary only, not ${process.platform}-${process.arch}`,
    };
  }
  try {
    const packageDir = dirname(require.resolve(`${pkg}/package.json`));
    const platformDir = dirname(
      createRequire(join(packageDir, "package.json")).resolve(`${platformPackage}/package.json`),
    );
    const path = join(platformDir, file);
    return existsSync(path) ? { path } : { unavailable: `${path} is missing` };
  } catch (error) {
    return { unavailable: `npm package ${platformPackage} is not installed: ${String(error)}` };
  }
}

/**
 * Bundles `test/pack/conformance/<entry>` against the packages installed in `projectDir`, as one
 * self-contained ES module (zod included): workerd and a browser take one file.
 */
export async function bundleConformance(
  projectDir: string,
  entry: string,
  outfile: string,
): Promise<string> {
  const source = join(projectDir, "conformance");
  await cp(new URL("./conformance/", import.meta.url), source, { recursive: true });
  const path = join(projectDir, outfile);
  await build({
    entryPoints: [join(source, entry)],
    outfile: path,
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    absWorkingDir: projectDir,
    logLevel: "error",
  });
  return path;
}

/** The conformance line a runtime printed, or an error with everything it printed. */
export function parseConformance(result: CommandResult): Conformance {
  const line = /CONFORMANCE (\{.*\})/.exec(result.stdout + result.stderr)?.[1];
  if (line === undefined) {
    throw new Error(
      `no conformance result (exit ${result.code}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return JSON.parse(line) as Conformance;
}

/** Runs a bundle in workerd: `workerd test` calls the worker's test() handler. The bundle must
 * be in `projectDir`, beside the config, which embeds it by name. */
export async function runInWorkerd(
  workerd: string,
  projectDir: string,
  bundle: string,
): Promise<CommandResult> {
  const config = join(projectDir, "workerd.capnp");
  await writeFile(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (services = [(name = "main", worker = .worker)]);
const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "${basename(bundle)}")],
  compatibilityDate = "2025-06-01",
);
`,
  );
  return runCommand(workerd, ["test", "--verbose", config], {
    cwd: projectDir,
    timeoutMs: 120_000,
  });
}

/** Runs a bundle in headless Chromium, served from 127.0.0.1 (a secure context for WebCrypto). */
export async function runInChromium(
  executablePath: string,
  bundleSource: string,
): Promise<Conformance> {
  const { chromium } = await import("playwright-core");
  const server = createServer((request, response) => {
    if (request.url === "/bundle.mjs") {
      response.writeHead(200, { "Content-Type": "text/javascript" }).end(bundleSource);
    } else {
      response
        .writeHead(200, { "Content-Type": "text/html" })
        .end("<!doctype html><title>conformance</title>");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    // A string is evaluated as an expression in the page, and its promise awaited.
    return await page.evaluate<Conformance>(
      'import("/bundle.mjs").then((m) => m.runConformance())',
    );
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
