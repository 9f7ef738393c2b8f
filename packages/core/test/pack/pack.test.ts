// The package as another developer gets it: packed with pnpm, installed with npm into an empty
// project outside the workspace, checked by publint and arethetypeswrong, and used there: the
// README's programs type-check as TypeScript consumers compile them and run, a node:http receiver
// accepts a delivery sent by the installed CLI, on every Node the package claims (its own, and
// the others fetched as npm packages), and the conformance subset runs in every runtime the README
// claims (runtimes.ts).
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
  linkNodeTypes,
  manifestTargets,
  nodeRuntime,
  packWorkspacePackage,
  publint,
  readmeExamples,
  readTarball,
  runCommand,
  type CommandResult,
  type ScratchProject,
} from "@overture/packaging/pack";
import {
  COMMONJS_PROGRAM,
  NARROWING,
  NARROWING_OUTPUT,
  NOT_NARROWED,
  README_OUTPUTS,
  README_PROGRAMS,
} from "./programs.ts";
import {
  bundleConformance,
  npmBinary,
  parseConformance,
  runInChromium,
  runInWorkerd,
  type Binary,
  type Conformance,
} from "./runtimes.ts";

const CORE = new URL("../../", import.meta.url);
const README = new URL("README.md", CORE);
const TSC = new URL("node_modules/typescript/bin/tsc", CORE).pathname;
const PROGRAMS = [...README_PROGRAMS, "narrowing.ts"];
let packDir = "";
let tarball = "";
let project: ScratchProject | undefined;
/** tsc's answer for the programs under nodenext, which also wrote them to out/ for Node. */
let nodenext: CommandResult | undefined;
/** The scratch project beforeAll installed. */
const installed = (): ScratchProject => {
  if (!project) throw new Error("the tarball was not installed");
  return project;
};

beforeAll(async () => {
  packDir = await mkdtemp(join(tmpdir(), "overture-tarballs-"));
  tarball = await packWorkspacePackage(CORE, packDir);
  project = await createScratchProject([tarball]);
  await linkNodeTypes(project, CORE);
  for (const [name, source] of await readmeExamples(README)) await project.write(name, source);
  await project.write("narrowing.ts", NARROWING);
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

describe("the packed @overture/core", () => {
  it("has a manifest with no workspace: or catalog: range, exporting built files only", async () => {
    const { manifest, manifestText, files } = await readTarball(tarball);
    expect(manifestText).not.toMatch(/"(workspace|catalog):/);
    // The workspace-only condition points at src/*.ts; devDependencies name private packages.
    expect(JSON.stringify(manifest.exports)).not.toContain("@overture/source");
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifestText).not.toMatch(/"@overture\/[^"]+": "/);
    expect(manifest.private).toBeUndefined();
    expect(manifest.repository?.url).toBe("git+https://github.com/overture-music/overture.git");
    expect(manifest.dependencies).toEqual({ zod: expect.stringMatching(/^\^4\./) as string });
    // engines names the Node majors the tests below run on, and no other.
    expect(enginesMajors(manifest.engines?.node ?? "")).toEqual(TESTED_NODE_MAJORS);
    expect(files.join("\n")).not.toMatch(
      /\.test\.ts|\.test-d\.ts|\.fixtures\.ts|generate\.mjs|build-inputs/,
    );
    for (const file of manifestTargets(manifest)) expect(files).toContain(file);
  });

  it("has Markdown whose links lead to files of the package or of the repository", async () => {
    const { files } = await readTarball(tarball);
    expect(files).toContain("README.md");
    const installedAt = join(installed().dir, "node_modules/@overture/core");
    const inRepository = (path: string) => existsSync(new URL(`../../${path}`, CORE));
    for (const file of files.filter((name) => name.endsWith(".md"))) {
      const text = await readFile(join(installedAt, file), "utf8");
      expect(deadPackedLinks(text, file, files, inRepository), file).toEqual([]);
    }
  });

  it("states no count of the signature vectors but the file's own", async () => {
    const readme = await readFile(new URL("README.md", CORE), "utf8");
    const vectors = JSON.parse(
      await readFile(new URL("test-vectors/webhook-signatures.json", CORE), "utf8"),
    ) as { cases: unknown[] };
    const counts = [...readme.matchAll(/\b(\d+) (?:signature )?(?:cases|vectors)\b/g)];
    for (const [text, count] of counts) expect(Number(count), text).toBe(vectors.cases.length);
  });

  it("passes publint with no message", async () => {
    const result = await publint(tarball);
    expect(result.stdout + result.stderr).toContain("All good!");
    expect(result.code).toBe(0);
  });

  it("passes arethetypeswrong for ESM consumers (the package is ESM-only)", async () => {
    const result = await attwEsmProblems(tarball);
    expect(result.problems).toEqual([]);
    expect(result.code).toBe(0);
  });
});

// The README's programs, and one that narrows a receiver's event, compiled as TypeScript
// consumers compile them: strict, exactOptionalPropertyTypes, three module settings.
describe("TypeScript programs, the README's verbatim, from the installed tarball", () => {
  it("has the programs this test runs, and no other", async () => {
    const examples = await readmeExamples(README);
    expect([...examples.keys()].sort()).toEqual(README_PROGRAMS);
  });

  it("compile under the nodenext module setting, the shipped declarations checked too", () => {
    expect((nodenext?.stdout ?? "") + (nodenext?.stderr ?? "")).toBe("");
    expect(nodenext?.code).toBe(0);
  });

  it.each(["node16", "bundler"] as const)(
    "compile under the %s module setting",
    { timeout: 120_000 },
    async (setting) => {
      const options = { tsc: TSC, setting, skipLibCheck: true };
      const result = await compileTypeScript(installed(), PROGRAMS, options);
      expect(result.stdout + result.stderr).toBe("");
      expect(result.code).toBe(0);
    },
  );

  it("a CommonJS program compiles under nodenext, and node16 refuses it, as the README says", async () => {
    const readme = await readFile(README, "utf8");
    expect(readme).toMatch(/CommonJS TypeScript project[\s\S]*?`nodenext`[\s\S]*?`node16` refuses/);
    await installed().write("commonjs.cts", COMMONJS_PROGRAM);
    const compile = (setting: "nodenext" | "node16") =>
      compileTypeScript(installed(), ["commonjs.cts"], { tsc: TSC, setting, skipLibCheck: true });
    const nodenextResult = await compile("nodenext");
    expect(nodenextResult.stdout + nodenextResult.stderr).toBe("");
    // node16 models a Node that cannot require() an ES module.
    expect((await compile("node16")).stdout).toContain("error TS1479");
  }, 120_000);

  it("a program that reads the result link without narrowing does not compile", async () => {
    await installed().write("not-narrowed.ts", NOT_NARROWED);
    const result = await compileTypeScript(installed(), ["not-narrowed.ts"], {
      tsc: TSC,
      setting: "nodenext",
      skipLibCheck: true,
    });
    expect(result.stdout).toMatch(
      /not-narrowed\.ts\(3,3\): error TS2322: Type 'string \| null \| undefined'/,
    );
    expect(result.code).not.toBe(0);
  }, 120_000);
});

// Everything that runs, on each Node the package claims: this process's through npx as the README
// shows, the others (fetched as npm packages) running the same files and the bin's script.
describe.each(TESTED_NODE_MAJORS)("on Node %i, from the installed tarball", (major) => {
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
    async (name, output) => {
      const result = await on().node(`out/${name.replace(/\.ts$/, ".js")}`);
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe(output);
    },
  );

  it("narrowing.ts narrows with no cast, and its throw-style entry throws the code", async () => {
    const run = await on().node("out/narrowing.js", { SECRET: "x" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(NARROWING_OUTPUT);
  });

  it("is required by a CommonJS program, every subpath (Node loads ES modules synchronously)", async () => {
    const { manifest } = await readTarball(tarball);
    const subpaths = Object.keys(manifest.exports).map((key) => `@overture/core${key.slice(1)}`);
    await on().write(
      "require-all.cjs",
      `for (const name of ${JSON.stringify(subpaths)}) require(name);\nconsole.log("required", ${subpaths.length});\n`,
    );
    const result = await on().node("require-all.cjs");
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`required ${subpaths.length}\n`);
  });

  it("receiver.ts, a plain node:http server, accepts what the README's CLI command sends", async () => {
    const readme = await readFile(new URL("README.md", CORE), "utf8");
    // The README's command and the answer it shows, on the port the receiver got instead of 8787.
    const command = /^npx overture-webhooks (send .+)\n# (HTTP \d+ \{.*?\})/m.exec(readme);
    expect(command).not.toBeNull();
    const [, line = "", answer = ""] = command ?? [];
    const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
    const secret = "whsec-pack-test+/=";
    // PORT=0: any free port; the program prints the one it got.
    const server = await on().start("out/receiver.js", /listening on \d+/, {
      OVERTURE_WEBHOOK_SECRET: secret,
      PORT: "0",
    });
    try {
      const port = /listening on (\d+)/.exec(server.output())?.[1] ?? "";
      const args = words.map((word) => word.replace("127.0.0.1:8787", `127.0.0.1:${port}`));
      expect(args.join(" ")).toContain(`127.0.0.1:${port}/`);
      const sent = await on().npx("overture-webhooks", args, {
        OVERTURE_WEBHOOK_SECRET: secret,
      });
      const shown = new RegExp(
        `^${answer.replace(/[{}()[\].*+?^$|\\]/g, "\\$&").replace("…", "[0-9a-f]{32}")}`,
      );
      expect(sent.stdout).toMatch(shown);
      expect(sent.code).toBe(0);
      const wrong = await on().npx("overture-webhooks", args, {
        OVERTURE_WEBHOOK_SECRET: "nope",
      });
      expect(wrong.stdout).toMatch(/^HTTP 401 .*WEBHOOK_SIGNATURE_MISMATCH/);
      expect(wrong.code).toBe(1);
      expect(`${sent.stdout}${sent.stderr}${wrong.stdout}${wrong.stderr}`).not.toContain(secret);
      await expect.poll(() => server.output(), { timeout: 5_000 }).toMatch(/task \S+ is success/);
    } finally {
      await server.stop();
    }
  });

  it("prints the command's help with exit code 0 and refuses a missing secret with 2", async () => {
    const help = await on().npx("overture-webhooks", ["--help"]);
    expect(help.stdout).toContain("overture-webhooks verify");
    expect(help.code).toBe(0);
    const args = ["send", "--url", "http://127.0.0.1:9/h"];
    const noSecret = await on().npx("overture-webhooks", args, { OVERTURE_WEBHOOK_SECRET: "" });
    expect(noSecret.stderr).toContain("OVERTURE_WEBHOOK_SECRET");
    expect(noSecret.code).toBe(2);
  });

  it("passes the conformance subset", async () => {
    const file = await bundleConformance(installed().dir, "node-entry.mjs", "conformance-node.mjs");
    const result = await on().node(file);
    expectAllPassed(parseConformance(result));
    expect(result.code).toBe(0);
  });
});

/** Vectors, receiver, form and client checks (conformance/conformance.mjs), all passed. */
function expectAllPassed(result: Conformance) {
  expect(result.failed).toEqual([]);
  expect(result.passed).toBeGreaterThanOrEqual(58);
}

describe("the conformance subset in every other runtime the README claims", () => {
  const bundle = (entry: string, out: string) => bundleConformance(installed().dir, entry, out);
  const runtimes: [name: string, binary: Binary, args: (file: string) => string[]][] = [
    [
      "Deno",
      npmBinary("deno", "@deno/linux-x64-glibc", "deno"),
      (file) => ["run", "--quiet", file],
    ],
    ["Bun", npmBinary("bun", "@oven/bun-linux-x64", "bin/bun"), (file) => [file]],
  ];

  for (const [name, binary, args] of runtimes) {
    it(name, async (context) => {
      if ("unavailable" in binary) return context.skip(binary.unavailable);
      const file = await bundle("node-entry.mjs", "conformance-node.mjs");
      const result = await runCommand(binary.path, args(file), { cwd: installed().dir });
      expectAllPassed(parseConformance(result));
      expect(result.code).toBe(0);
    });
  }

  it("workerd", async (context) => {
    const workerd = npmBinary("workerd", "@cloudflare/workerd-linux-64", "bin/workerd");
    if ("unavailable" in workerd) return context.skip(workerd.unavailable);
    const file = await bundle("worker-entry.mjs", "conformance-worker.mjs");
    const result = await runInWorkerd(workerd.path, installed().dir, file);
    expectAllPassed(parseConformance(result));
    expect(result.code).toBe(0);
  });

  it("Chromium", async (context) => {
    const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
    if (!existsSync(chromium))
      return context.skip(`no Chromium at ${chromium} (set CHROMIUM_PATH)`);
    const file = await bundle("conformance.mjs", "conformance-browser.mjs");
    expectAllPassed(await runInChromium(chromium, await readFile(file, "utf8")));
  });
});
