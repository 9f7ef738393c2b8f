// Test-only: packs workspace packages with pnpm, installs the tarballs with npm into an empty
// project outside the workspace, and runs programs there, as another developer would. Shared by
// the pack tests of @overture/core and @overture/platform-emulator; every wait is bounded and
// every process it starts is stopped by its own process group.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand, type CommandResult } from "./command.ts";

/** publint and attw are this package's dependencies; they run from here. */
const HERE = dirname(fileURLToPath(import.meta.url));

export { runCommand } from "./command.ts";
export type { CommandResult } from "./command.ts";

/**
 * Packs the workspace package in `packageDir` with `pnpm pack` (which runs its `prepack`, builds,
 * applies `publishConfig` and rewrites `workspace:` and `catalog:` ranges) into `destination`;
 * returns the tarball path.
 */
export async function packWorkspacePackage(packageDir: URL, destination: string): Promise<string> {
  const result = await runCommand("pnpm", ["pack", "--pack-destination", destination], {
    cwd: fileURLToPath(packageDir),
    timeoutMs: 300_000,
  });
  const tarball = /(\S+\.tgz)\s*$/.exec(result.stdout.trim())?.[1];
  if (result.code !== 0 || tarball === undefined) {
    throw new Error(`pnpm pack failed in ${packageDir.href}:\n${result.stdout}\n${result.stderr}`);
  }
  return tarball;
}

/** What a tarball holds: its manifest and the paths of its files (without `package/`). */
export interface PackedPackage {
  readonly manifestText: string;
  readonly manifest: PackedManifest;
  readonly files: readonly string[];
}

export interface PackedManifest {
  name: string;
  private?: boolean;
  exports: Record<string, unknown>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  engines?: { node?: string };
  repository?: { url?: string };
}

export async function readTarball(tarball: string): Promise<PackedPackage> {
  const cwd = dirname(tarball);
  const manifestText = (
    await runCommand("tar", ["-xOzf", tarball, "package/package.json"], { cwd })
  ).stdout;
  const listing = (await runCommand("tar", ["-tzf", tarball], { cwd })).stdout;
  const files = listing
    .split("\n")
    .filter((line) => line.startsWith("package/"))
    .map((line) => line.slice("package/".length));
  return { manifestText, manifest: JSON.parse(manifestText) as PackedManifest, files };
}

/** Every file an `exports` target or `bin` names, relative to the package root. */
export function manifestTargets(manifest: PackedManifest): string[] {
  const leaves = (value: unknown): string[] =>
    typeof value === "string"
      ? [value]
      : typeof value === "object" && value !== null
        ? Object.values(value).flatMap(leaves)
        : [];
  return [...leaves(manifest.exports), ...Object.values(manifest.bin ?? {})].map((target) =>
    posix.normalize(target),
  );
}

/** `publint run <tarball> --strict`: passes when it prints "All good!" and exits 0. */
export function publint(tarball: string): Promise<CommandResult> {
  return runCommand("pnpm", ["exec", "publint", "run", tarball, "--strict"], { cwd: HERE });
}

/**
 * arethetypeswrong on the tarball with its `esm-only` profile. Returns the problems an ESM
 * consumer would meet: the profile leaves out CommonJS `require` and node10 resolution, and so
 * does this filter, since the packages are ESM-only by design.
 */
export async function attwEsmProblems(
  tarball: string,
): Promise<{ code: number; problems: unknown[] }> {
  const result = await runCommand(
    "pnpm",
    ["exec", "attw", tarball, "--profile", "esm-only", "--format", "json"],
    { cwd: HERE },
  );
  const report = JSON.parse(result.stdout) as {
    analysis: { problems?: { kind: string; resolutionKind?: string }[] };
  };
  const problems = (report.analysis.problems ?? []).filter(
    (p) => p.resolutionKind !== "node10" && p.resolutionKind !== "node16-cjs",
  );
  return { code: result.code, problems };
}

/** An empty npm project in the system's temporary folder, outside any workspace. */
export interface ScratchProject {
  readonly dir: string;
  /** Writes a file in the project. */
  write(name: string, content: string): Promise<void>;
  /** Runs `node <file>` in the project. */
  node(file: string, env?: NodeJS.ProcessEnv): Promise<CommandResult>;
  /** Runs an installed package's bin with npx, offline. */
  npx(bin: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<CommandResult>;
  /** Starts `node <file>` and resolves once its output matches `ready`. */
  start(file: string, ready: RegExp, env?: NodeJS.ProcessEnv): Promise<RunningProgram>;
  /** Starts an installed bin with npx, offline, and resolves once its output matches `ready`. */
  startNpx(bin: string, args: readonly string[], ready: RegExp): Promise<RunningProgram>;
  remove(): Promise<void>;
  /**
   * The same project, its programs run by the Node binary at `nodePath`: `node` and `start` use
   * it, and `npx`/`startNpx` run the installed bin's script with it (npx would start the `node`
   * of the PATH).
   */
  withNode(nodePath: string): ScratchProject;
}

export interface RunningProgram {
  readonly output: () => string;
  stop(): Promise<void>;
}

/** Creates a scratch project and installs `tarballs` into it with npm. */
export async function createScratchProject(tarballs: readonly string[]): Promise<ScratchProject> {
  const dir = await mkdtemp(join(tmpdir(), "overture-pack-"));
  const manifest = { name: "scratch", private: true, type: "module" };
  await writeFile(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  const install = await runCommand(
    "npm",
    ["install", "--no-audit", "--no-fund", "--no-package-lock", ...tarballs],
    { cwd: dir, timeoutMs: 300_000 },
  );
  if (install.code !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`npm install failed:\n${install.stdout}\n${install.stderr}`);
  }
  return scratchProject(dir);
}

function scratchProject(dir: string, nodePath?: string): ScratchProject {
  const npxArgs = (bin: string, args: readonly string[]) => [
    "--offline",
    "--no-install",
    bin,
    ...args,
  ];
  const node = nodePath ?? "node";
  // With another Node, a bin runs as its script: node_modules/.bin/<bin> links to it.
  const binScript = (bin: string) => realpath(join(dir, "node_modules/.bin", bin));
  return {
    dir,
    write: (name, content) => writeFile(join(dir, name), content),
    node: (file, env) => runCommand(node, [file], { cwd: dir, env }),
    npx: async (bin, args, env) =>
      nodePath
        ? runCommand(nodePath, [await binScript(bin), ...args], { cwd: dir, env })
        : runCommand("npx", npxArgs(bin, args), { cwd: dir, env }),
    start: (file, ready, env) => startProgram(dir, node, [file], ready, env),
    startNpx: async (bin, args, ready) =>
      nodePath
        ? startProgram(dir, nodePath, [await binScript(bin), ...args], ready)
        : startProgram(dir, "npx", npxArgs(bin, args), ready),
    remove: () => rm(dir, { recursive: true, force: true }),
    withNode: (path) => scratchProject(dir, path),
  };
}

const READY_WITHIN_MS = 30_000;

function startProgram(
  dir: string,
  command: string,
  args: readonly string[],
  ready: RegExp,
  env?: NodeJS.ProcessEnv,
): Promise<RunningProgram> {
  // Its own process group, so what it starts (npx starts node) is stopped with it.
  const child: ChildProcess = spawn(command, [...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    detached: true,
  });
  const name = [command, ...args].join(" ");
  let output = "";
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => {
      resolve();
    });
  });
  const program: RunningProgram = {
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // the group is gone already
        }
      }
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void program.stop();
      reject(new Error(`${name} did not print ${ready} within 30 s:\n${output}`));
    }, READY_WITHIN_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(program);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it was ready:\n${output}`));
    });
  });
}

export { MODULE_SETTINGS, compileTypeScript, linkNodeTypes } from "./typescript.ts";
export type { ModuleSetting } from "./typescript.ts";
export { TESTED_NODE_MAJORS, enginesMajors, nodeRuntime } from "./node-versions.ts";
export type { NodeRuntime } from "./node-versions.ts";

/** A port nothing listens on at the moment (asked of the system, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The complete programs of a README: each fenced block whose first line is
 * `// example: <file name>`, by file name, verbatim.
 */
export async function readmeExamples(readme: URL): Promise<Map<string, string>> {
  const text = await readFile(readme, "utf8");
  const examples = new Map<string, string>();
  for (const match of text.matchAll(/```(?:js|ts)\n(\/\/ example: (\S+)\n[\s\S]*?)```/g)) {
    examples.set(match[2] ?? "", match[1] ?? "");
  }
  return examples;
}

/** The link targets of a Markdown text, outside fenced and inline code. */
export function markdownLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, "").replace(/`[^`\n]*`/g, "");
  return [
    ...[...prose.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)],
    ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(?:<([^>]+)>|(\S+))/gm)],
  ].map((match) => match[1] ?? match[2] ?? "");
}

/** Where the packages' documentation links into the repository (absolute, to work from npm). */
export const REPOSITORY_BLOB = "https://github.com/overture-music/overture/blob/main/";

/**
 * The links of a packed Markdown file (at `path` in the package) that lead nowhere once
 * installed: a relative link to a file the tarball lacks (on a registry's page or in
 * node_modules, the rest of the repository is not there), or a link to the repository on GitHub
 * naming a path `repositoryHas` denies (it cannot be fetched here, so it is checked against
 * the working tree it was written from).
 */
export function deadPackedLinks(
  markdown: string,
  path: string,
  files: readonly string[],
  repositoryHas: (path: string) => boolean,
): string[] {
  const present = new Set(files);
  const inPackage = (target: string) =>
    present.has(target) || files.some((file) => file.startsWith(`${target}/`));
  return markdownLinks(markdown).filter((target) => {
    const bare = decodeURIComponent(target.split("#", 1)[0] ?? "");
    if (target.startsWith(REPOSITORY_BLOB))
      return !repositoryHas(bare.slice(REPOSITORY_BLOB.length));
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || bare === "") return false;
    return !inPackage(posix.normalize(posix.join(posix.dirname(path), bare)));
  });
}
