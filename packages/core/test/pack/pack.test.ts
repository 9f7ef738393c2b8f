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
  type CommandResult,
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

// The README's programs, and one that narrows a receiver's event, compiled as TypeScript
// consumers compile (strict, exactOptionalPropertyTypes, three module settings) and run.
describe("TypeScript programs, the README's verbatim, from the installed tarball", () => {
  const expected: Record<string, string> = {
    "fetch-handler.ts": "received e1: success\n200\n",
    "verify.ts": "https://files.example/t2.wav\n401 WEBHOOK_SIGNATURE_MISMATCH\n",
    "music.ts": "true true\nguidance_scale_text: range\ntrue\n",
  };
  const readmePrograms = [...Object.keys(expected), "receiver.ts"].sort();
  const programs = [...readmePrograms, "narrowing.ts"];
  const narrowing = `import { WebhookVerificationError, constructCallbackEvent, createWebhookHandler } from "@overture/core/receiver";
import type { CallbackEvent } from "@overture/core/receiver";
import { taskErrorMessage } from "@overture/core/schemas";
import { signWebhook } from "@overture/core/webhook";

export function describeEvent(event: CallbackEvent): string {
  if (event.status === "success") {
    const link: string = event.output.file_url; // narrowed: no cast
    return link;
  }
  if (event.status === "failure") return taskErrorMessage(event) ?? "failed";
  return event.status;
}

createWebhookHandler({
  secrets: process.env.SECRET,
  onEvent: { success: (event) => console.log(event.output.file_url.length) },
});

const secret = "s3cret";
const url = "https://receiver.example/hook?k=1";
const body = JSON.stringify({ event_id: "e", task_id: "t", status: "success", output: { url: "https://f.example/a.wav" } });
const headers = await signWebhook({ secret, url, body });
console.log(describeEvent(await constructCallbackEvent({ body, url, headers, secrets: secret })));
try {
  await constructCallbackEvent({ body, url, headers, secrets: "another" });
} catch (error) {
  if (error instanceof WebhookVerificationError) console.log(error.code, error.status);
}
`;
  const notNarrowed = `import type { CallbackEvent } from "@overture/core/receiver";
export function link(event: CallbackEvent): string {
  return event.output?.file_url; // not narrowed: may be undefined, null, or absent
}
`;

  let nodenext: CommandResult | undefined;

  beforeAll(async () => {
    const examples = await readmeExamples(new URL("README.md", CORE));
    for (const [name, source] of examples) await installed().write(name, source);
    await installed().write("narrowing.ts", narrowing);
    // Checked with the shipped declarations, and emitted to out/ for Node to run.
    nodenext = await compileTypeScript(installed(), programs, {
      tsc: TSC,
      setting: "nodenext",
      emit: true,
    });
  }, 120_000);

  it("has the programs this test runs, and no other", async () => {
    const examples = await readmeExamples(new URL("README.md", CORE));
    expect([...examples.keys()].sort()).toEqual(readmePrograms);
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
      const result = await compileTypeScript(installed(), programs, options);
      expect(result.stdout + result.stderr).toBe("");
      expect(result.code).toBe(0);
    },
  );

  it.each(Object.entries(expected))("%s prints what the README says", async (name, output) => {
    const result = await installed().node(`out/${name.replace(/\.ts$/, ".js")}`);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(output);
  });

  it("narrowing.ts narrows with no cast, and its throw-style entry throws the code", async () => {
    const run = await installed().node("out/narrowing.js", { SECRET: "x" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("https://f.example/a.wav\nWEBHOOK_SIGNATURE_MISMATCH 401\n");
  });

  it("a program that reads the result link without narrowing does not compile", async () => {
    await installed().write("not-narrowed.ts", notNarrowed);
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
