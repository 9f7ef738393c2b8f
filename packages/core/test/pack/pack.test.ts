// The package as another developer gets it: packed with pnpm, installed with npm into an empty
// project outside the workspace, checked by publint and arethetypeswrong, and used there: the
// README's programs run verbatim, a node:http receiver accepts a delivery sent by the installed
// CLI, and the conformance subset runs in every runtime the README claims (runtimes.ts).
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MODULE_SETTINGS,
  attwEsmProblems,
  compileTypeScript,
  createScratchProject,
  deadPackedLinks,
  linkNodeTypes,
  manifestTargets,
  packWorkspacePackage,
  publint,
  readmeExamples,
  readTarball,
  runCommand,
  type ModuleSetting,
  type ScratchProject,
} from "@overture/packaging/pack";
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
const TSC = new URL("node_modules/typescript/bin/tsc", CORE).pathname;
let packDir = "";
let tarball = "";
let project: ScratchProject | undefined;
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
    expect(files.join("\n")).not.toMatch(/\.test\.ts|\.fixtures\.ts|generate\.mjs|build-inputs/);
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

  it("is required by a CommonJS program, every subpath (Node loads ES modules synchronously)", async () => {
    const { manifest } = await readTarball(tarball);
    const subpaths = Object.keys(manifest.exports).map((key) => `@overture/core${key.slice(1)}`);
    await installed().write(
      "require-all.cjs",
      `for (const name of ${JSON.stringify(subpaths)}) require(name);\nconsole.log("required", ${subpaths.length});\n`,
    );
    const result = await installed().node("require-all.cjs");
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`required ${subpaths.length}\n`);
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

describe("the README's programs, verbatim, from the installed tarball", () => {
  const expected: Record<string, string> = {
    "fetch-handler.ts": "received e1: success\n200\n",
    "verify.ts": "true false WEBHOOK_SIGNATURE_MISMATCH\n",
    "music.ts": "true true\nguidance_scale_text: range\ntrue\n",
  };
  const programs = [...Object.keys(expected), "receiver.ts"].sort();

  beforeAll(async () => {
    const examples = await readmeExamples(new URL("README.md", CORE));
    for (const [name, source] of examples) await installed().write(name, source);
    // Node runs what tsc emits for nodenext, from out/.
    const emitted = await compileTypeScript(installed(), programs, {
      tsc: TSC,
      setting: "nodenext",
      emit: true,
    });
    expect(emitted.stdout + emitted.stderr).toBe("");
  }, 120_000);

  it("has the programs this test runs, and no other", async () => {
    const examples = await readmeExamples(new URL("README.md", CORE));
    expect([...examples.keys()].sort()).toEqual(programs);
  });

  it.each(Object.keys(MODULE_SETTINGS) as ModuleSetting[])(
    "compile under strict and exactOptionalPropertyTypes with the %s module setting",
    { timeout: 120_000 },
    async (setting) => {
      const result = await compileTypeScript(installed(), programs, { tsc: TSC, setting });
      expect(result.stdout + result.stderr).toBe("");
      expect(result.code).toBe(0);
    },
  );

  it.each(Object.entries(expected))("%s prints what the README says", async (name, output) => {
    const result = await installed().node(`out/${name.replace(/\.ts$/, ".js")}`);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(output);
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
    const server = await installed().start("out/receiver.js", /listening on \d+/, {
      OVERTURE_WEBHOOK_SECRET: secret,
      PORT: "0",
    });
    try {
      const port = /listening on (\d+)/.exec(server.output())?.[1] ?? "";
      const args = words.map((word) => word.replace("127.0.0.1:8787", `127.0.0.1:${port}`));
      expect(args.join(" ")).toContain(`127.0.0.1:${port}/`);
      const sent = await installed().npx("overture-webhooks", args, {
        OVERTURE_WEBHOOK_SECRET: secret,
      });
      const shown = new RegExp(
        `^${answer.replace(/[{}()[\].*+?^$|\\]/g, "\\$&").replace("…", "[0-9a-f]{32}")}`,
      );
      expect(sent.stdout).toMatch(shown);
      expect(sent.code).toBe(0);
      const wrong = await installed().npx("overture-webhooks", args, {
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
});

describe("the installed overture-webhooks command", () => {
  it("prints its help with exit code 0 and refuses a missing secret with 2", async () => {
    const help = await installed().npx("overture-webhooks", ["--help"]);
    expect(help.stdout).toContain("overture-webhooks verify");
    expect(help.code).toBe(0);
    const args = ["send", "--url", "http://127.0.0.1:9/h"];
    const noSecret = await installed().npx("overture-webhooks", args, {
      OVERTURE_WEBHOOK_SECRET: "",
    });
    expect(noSecret.stderr).toContain("OVERTURE_WEBHOOK_SECRET");
    expect(noSecret.code).toBe(2);
  });
});

describe("the conformance subset in every runtime the README claims", () => {
  // Vectors, receiver, form and client checks (conformance/conformance.mjs), bundled from the
  // installed package into one file per entry.
  const expectAllPassed = (result: Conformance) => {
    expect(result.failed).toEqual([]);
    expect(result.passed).toBeGreaterThanOrEqual(58);
  };
  const bundle = (entry: string, out: string) => bundleConformance(installed().dir, entry, out);
  const runtimes: [name: string, binary: Binary, args: (file: string) => string[]][] = [
    ["Node", { path: process.execPath }, (file) => [file]],
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
