// The emulator as another developer gets it: this package and @overture/core packed with pnpm,
// both tarballs installed with npm into an empty project outside the workspace, checked by
// publint and arethetypeswrong, and used there: the README's programs and a consumer of the
// shipped .d.ts type-check as TypeScript, the programs run (a music task encoded and submitted
// with core, its signed callbacks verified by core's node:http receiver), and the bin starts.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  TESTED_NODE_MAJORS,
  attwEsmProblems,
  compileTypeScript,
  createScratchProject,
  deadPackedLinks,
  enginesMajors,
  freePort,
  linkNodeTypes,
  manifestTargets,
  nodeRuntime,
  packWorkspacePackage,
  publint,
  readmeExamples,
  readTarball,
  type CommandResult,
  type ScratchProject,
} from "@overture/packaging/pack";

const EMULATOR = new URL("../../", import.meta.url);
/** Tests that start tsc, attw, npx or a program: slow on a loaded 2-core machine, still bounded. */
const SLOW = 120_000;
const CORE = new URL("../core/", EMULATOR);
const README = new URL("README.md", EMULATOR);
const TSC = new URL("node_modules/typescript/bin/tsc", EMULATOR).pathname;
const README_OUTPUTS: Readonly<Record<string, string>> = {
  "music-task.ts": "success in_progress success waiting\naudio/wav 1323044\n",
  "in-process.ts": '200 {"available":1,"max_concurrency":2}\nsuccess string\n',
};

/** A consumer of the shipped types, compiled with the README's programs. */
const CONSUMER = `import { createPlatformEmulator, seedFor, type PlatformEmulatorOptions } from "@overture/platform-emulator";
import { startPlatformEmulator, type RunningEmulator } from "@overture/platform-emulator/server";
const options: PlatformEmulatorOptions = { profile: "live", seed: seedFor({ backendUrl: "http://127.0.0.1:1" }) };
export const emulator = createPlatformEmulator(options);
export const later: () => Promise<RunningEmulator> = () => startPlatformEmulator({ port: 0 });
// @ts-expect-error: the option is checked, not any
createPlatformEmulator({ profile: "no-such-profile" });
`;
const PROGRAMS = [...Object.keys(README_OUTPUTS), "consumer.ts"];
/** A CommonJS TypeScript consumer (`.cts`): TypeScript compiles its imports to `require()`. */
const COMMONJS_CONSUMER = `import { createPlatformEmulator } from "@overture/platform-emulator";
import { startPlatformEmulator } from "@overture/platform-emulator/server";
createPlatformEmulator({ clock: "manual" }).control.close();
export const start: typeof startPlatformEmulator = startPlatformEmulator;
`;
let packDir = "";
let tarball = "";
let project: ScratchProject | undefined;
/** tsc's answer for the programs under nodenext, which also wrote them to out/ for Node. */
let nodenext: CommandResult | undefined;
/** The scratch project beforeAll installed. */
const installed = (): ScratchProject => {
  if (!project) throw new Error("the tarballs were not installed");
  return project;
};
const installedAt = () => join(installed().dir, "node_modules/@overture/platform-emulator");

beforeAll(async () => {
  packDir = await mkdtemp(join(tmpdir(), "overture-tarballs-"));
  const core = await packWorkspacePackage(CORE, packDir);
  tarball = await packWorkspacePackage(EMULATOR, packDir);
  project = await createScratchProject([tarball, core]);
  for (const [name, source] of await readmeExamples(README)) await project.write(name, source);
  await project.write("consumer.ts", CONSUMER);
  await linkNodeTypes(project, EMULATOR);
  // Checked with the shipped declarations, and emitted to out/ for every Node to run.
  nodenext = await compileTypeScript(project, PROGRAMS, {
    tsc: TSC,
    setting: "nodenext",
    emit: true,
  });
}, 600_000);

afterAll(async () => {
  await project?.remove();
  await rm(packDir, { recursive: true, force: true });
});

describe("the packed @overture/platform-emulator", () => {
  it("has a manifest with no workspace:, catalog: or source condition, and every file it names", async () => {
    const { manifest, manifestText, files } = await readTarball(tarball);
    expect(manifestText).not.toMatch(/"(workspace|catalog):/);
    expect(JSON.stringify(manifest.exports)).not.toContain("@overture/source");
    // devDependencies name private @overture/*@0.0.0 packages no registry has.
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifestText).not.toMatch(/"@overture\/[^"]+": "/);
    expect(manifest.private).toBeUndefined();
    expect(manifest.repository?.url).toBe("git+https://github.com/overture-music/overture.git");
    expect(Object.keys(manifest.bin ?? {})).toContain("overture-platform-emulator");
    // engines names the Node majors the tests below run on, and no other.
    expect(enginesMajors(manifest.engines?.node ?? "")).toEqual(TESTED_NODE_MAJORS);
    // The packed exports are the workspace's without the source condition.
    const workspace = JSON.parse(await readFile(new URL("package.json", EMULATOR), "utf8")) as {
      exports: object;
    };
    const withoutSource = JSON.parse(
      JSON.stringify(workspace.exports, (key, value: unknown) =>
        key === "@overture/source" ? undefined : value,
      ),
    ) as object;
    expect(manifest.exports).toEqual(withoutSource);
    for (const file of manifestTargets(manifest)) expect(files).toContain(file);
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "CHANGELOG.md"]));
    expect(
      files.filter(
        (file) =>
          !/^(dist\/|bin\/platform-emulator\.js$|[A-Z]+\.md$|LICENSE$|package\.json$)/.test(file),
      ),
    ).toEqual([]);
    expect(files).not.toContain("dist/.build-inputs");
  });

  it("bundles @overture/core: it is no dependency, and no shipped file imports it", async () => {
    const { manifest, files } = await readTarball(tarball);
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual([
      "@hono/node-server",
      "hono",
      "jose",
      "zod",
    ]);
    const code = files.filter((file) => /\.(js|d\.ts)$/.test(file));
    expect(code.length).toBeGreaterThan(3);
    for (const file of code) {
      const text = await readFile(join(installedAt(), file), "utf8");
      expect(text, file).not.toMatch(/(from|import\(?)\s*["']@overture\/core/);
    }
  });

  it("has Markdown whose links lead to files of the package or of the repository", async () => {
    const { files } = await readTarball(tarball);
    const inRepository = (path: string) => existsSync(new URL(`../../${path}`, EMULATOR));
    for (const file of files.filter((name) => name.endsWith(".md"))) {
      const text = await readFile(join(installedAt(), file), "utf8");
      expect(deadPackedLinks(text, file, files, inRepository), file).toEqual([]);
    }
  });

  it("is versioned with the core it bundles: one fixed changesets group, same version", async () => {
    const config = JSON.parse(
      await readFile(new URL("../../.changeset/config.json", EMULATOR), "utf8"),
    ) as { fixed: string[][]; ignore: string[] };
    const group = config.fixed.find((names) => names.includes("@overture/platform-emulator"));
    expect(group?.slice().sort()).toEqual(["@overture/core", "@overture/platform-emulator"]);
    expect(config.ignore).toEqual([]);
    const versionOf = async (dir: URL) =>
      (JSON.parse(await readFile(new URL("package.json", dir), "utf8")) as { version: string })
        .version;
    expect(await versionOf(EMULATOR)).toBe(await versionOf(CORE));
  });

  it(
    "passes publint with no message",
    async () => {
      const result = await publint(tarball);
      expect(result.stdout + result.stderr).toContain("All good!");
      expect(result.code).toBe(0);
    },
    SLOW,
  );

  it(
    "passes arethetypeswrong for ESM consumers (the package is ESM-only)",
    async () => {
      const result = await attwEsmProblems(tarball);
      expect(result.problems).toEqual([]);
      expect(result.code).toBe(0);
    },
    SLOW,
  );
});

// The README's programs and a consumer of the shipped types, compiled as TypeScript consumers
// compile (strict, exactOptionalPropertyTypes, three module settings), then run.
describe("TypeScript programs, the README's verbatim, from the installed tarballs", () => {
  it("has the programs this test runs, and no other", async () => {
    const examples = await readmeExamples(README);
    expect([...examples.keys()].sort()).toEqual(Object.keys(README_OUTPUTS).sort());
  });

  it("reads a result link with taskResultUrl, never by one field (live outputs may use url)", async () => {
    for (const [name, source] of await readmeExamples(README)) {
      expect(source, name).not.toMatch(/\.output\??\.(file_)?url\b/);
    }
  });

  it("compile under the nodenext module setting, the shipped declarations checked too", () => {
    expect((nodenext?.stdout ?? "") + (nodenext?.stderr ?? "")).toBe("");
    expect(nodenext?.code).toBe(0);
  });

  it.each(["node16", "bundler"] as const)(
    "compile under the %s module setting",
    { timeout: SLOW },
    async (setting) => {
      const options = { tsc: TSC, setting, skipLibCheck: true };
      const result = await compileTypeScript(installed(), PROGRAMS, options);
      expect(result.stdout + result.stderr).toBe("");
      expect(result.code).toBe(0);
    },
  );

  it(
    "a CommonJS consumer compiles under nodenext, and node16 refuses it, as the README says",
    async () => {
      const readme = await readFile(README, "utf8");
      expect(readme).toMatch(
        /CommonJS TypeScript\s+project[\s\S]*?`nodenext`[\s\S]*?`node16` refuses/,
      );
      await installed().write("commonjs.cts", COMMONJS_CONSUMER);
      const compile = (setting: "nodenext" | "node16") =>
        compileTypeScript(installed(), ["commonjs.cts"], { tsc: TSC, setting, skipLibCheck: true });
      const nodenextResult = await compile("nodenext");
      expect(nodenextResult.stdout + nodenextResult.stderr).toBe("");
      // node16 models a Node that cannot require() an ES module.
      expect((await compile("node16")).stdout).toContain("error TS1479");
    },
    SLOW,
  );
});

// Everything that runs, on each Node the package claims: this process's through npx as the README
// shows, the others (fetched as npm packages) running the same files and the bin's script.
describe.each(TESTED_NODE_MAJORS)("on Node %i, from the installed tarballs", (major) => {
  let node: ScratchProject | undefined;
  const on = (): ScratchProject => {
    if (!node) throw new Error(`Node ${major} could not be started`);
    return node;
  };

  beforeAll(async () => {
    const runtime = await nodeRuntime(major);
    node = runtime.path === process.execPath ? installed() : installed().withNode(runtime.path);
    const version = await on().node("--version");
    expect(version.stdout.startsWith(`v${major}.`), version.stdout + version.stderr).toBe(true);
  }, 600_000);

  it.each(Object.entries(README_OUTPUTS))(
    "%s prints what the README says",
    { timeout: SLOW },
    async (name, output) => {
      const result = await on().node(`out/${name.replace(/\.ts$/, ".js")}`);
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe(output);
    },
  );

  it(
    "is required by a CommonJS program, both entry points (Node loads ES modules synchronously)",
    async () => {
      await on().write(
        "require-all.cjs",
        'require("@overture/platform-emulator");\nrequire("@overture/platform-emulator/server");\nconsole.log("required");\n',
      );
      const result = await on().node("require-all.cjs");
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe("required\n");
    },
    SLOW,
  );

  it(
    "starts on the port given and answers as the README's quick start shows",
    async () => {
      // The README's lines: the command, the request, and the answer as a comment after it.
      const readme = await readFile(README, "utf8");
      const command = /^npx overture-platform-emulator --port 4010\b.*$/m.exec(readme);
      const request =
        /^curl -H "Authorization: Bearer (\S+)" (http:\/\/127\.0\.0\.1:4010\S+)\n# (.+)$/m.exec(
          readme,
        );
      expect(command).not.toBeNull();
      expect(request).not.toBeNull();
      const [, token = "", url = "", answer = ""] = request ?? [];

      const port = await freePort();
      const emulator = await on().startNpx(
        "overture-platform-emulator",
        ["--port", String(port)],
        /access tokens/,
      );
      try {
        expect(emulator.output()).toContain(`base_url  http://127.0.0.1:${port}`);
        const response = await fetch(url.replace(":4010", `:${port}`), {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(answer);
      } finally {
        await emulator.stop();
      }
    },
    SLOW,
  );

  it(
    "prints its help with exit code 0 and refuses an unknown flag with 2",
    async () => {
      const help = await on().npx("overture-platform-emulator", ["--help"]);
      expect(help.stdout).toContain("--port <n>");
      expect(help.code).toBe(0);
      const wrong = await on().npx("overture-platform-emulator", ["--no-such-flag"]);
      expect(wrong.stderr).toContain("--no-such-flag");
      expect(wrong.code).toBe(2);
    },
    SLOW,
  );
});
