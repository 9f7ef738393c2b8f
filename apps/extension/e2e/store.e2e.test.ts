// The store packages as `pnpm zip` makes them, read back from the zips, and Mozilla's add-on
// linter on the Firefox store build. No browser needed.
import { execFile } from "node:child_process";
import { readFile, readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import {
  CHROME_PUBLIC_KEY,
  DEFAULT_BACKEND_URL,
  GECKO_ID,
} from "../src/lib/shared/extension-identity.ts";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..");
const OUTPUT = join(ROOT, ".output");
const WXT = join(ROOT, "node_modules/.bin/wxt");
const LINTER = join(ROOT, "node_modules/.bin/addons-linter");
const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
  version: string;
};

type Files = Record<string, Uint8Array>;
const unzip = async (name: string): Promise<Files> =>
  unzipSync(new Uint8Array(await readFile(join(OUTPUT, name))));
const json = (files: Files, path: string): Record<string, unknown> => {
  const file = files[path];
  if (!file) throw new Error(`${path} is not in the zip`);
  return JSON.parse(strFromU8(file)) as Record<string, unknown>;
};
const scripts = (files: Files) =>
  Object.entries(files)
    .filter(([path]) => path.endsWith(".js"))
    .map(([, bytes]) => strFromU8(bytes))
    .join("\n");

interface LintMessage {
  code: string;
  file?: string;
  line?: number;
  column?: number;
  message: string;
}
interface LintReport {
  errors: LintMessage[];
  warnings: LintMessage[];
  notices: LintMessage[];
}

/**
 * Warnings the linter gives on code that is not ours, each proved to be that code by what the
 * bundle holds where the linter points. Preact's renderer assigns `innerHTML` for
 * `dangerouslySetInnerHTML`, which Overture never uses (checked below).
 */
async function isThirdParty(dir: string, warning: LintMessage): Promise<boolean> {
  if (warning.code !== "UNSAFE_VAR_ASSIGNMENT" || !warning.file) return false;
  const text = await readFile(join(dir, warning.file), "utf8");
  const line = text.split("\n")[(warning.line ?? 1) - 1] ?? "";
  const at = warning.column ?? 0;
  return line.slice(Math.max(0, at - 400), at + 400).includes("dangerouslySetInnerHTML");
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe("the store packages (pnpm zip)", () => {
  let chrome: Files;
  let firefox: Files;
  let sources: Files;

  beforeAll(async () => {
    // As a release runs it: Vitest's NODE_ENV=test would make Vite emit development JSX.
    await run("pnpm", ["zip"], { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" } });
    [chrome, firefox, sources] = await Promise.all([
      unzip(`overture-${version}-chrome.zip`),
      unzip(`overture-${version}-firefox.zip`),
      unzip(`overture-${version}-sources.zip`),
    ]);
  });

  it("leaves the development key out of the Chrome zip, and asks for no host at install", () => {
    const manifest = json(chrome, "manifest.json");
    expect(manifest).not.toHaveProperty("key");
    expect(manifest).not.toHaveProperty("host_permissions");
    expect(manifest.optional_host_permissions).toEqual(["http://*/*", "https://*/*"]);
  });

  it("opens Overture with a keyboard shortcut in both browsers", () => {
    const command = { suggested_key: { default: "Alt+Shift+O" } };
    expect(json(chrome, "manifest.json").commands).toMatchObject({ _execute_action: command });
    expect(json(firefox, "manifest.json").commands).toMatchObject({
      _execute_browser_action: command,
    });
  });

  it("declares Firefox's data collection, with the add-on id", () => {
    expect(json(firefox, "manifest.json").browser_specific_settings).toMatchObject({
      gecko: {
        id: GECKO_ID,
        data_collection_permissions: { required: ["authenticationInfo"] },
      },
    });
  });

  it("has no default backend address in either store build", () => {
    expect(scripts(chrome).includes(DEFAULT_BACKEND_URL)).toBe(false);
    expect(scripts(firefox).includes(DEFAULT_BACKEND_URL)).toBe(false);
  });

  it("carries no path of the machine that built it", () => {
    expect(scripts(chrome).includes(ROOT)).toBe(false);
    expect(scripts(firefox).includes(ROOT)).toBe(false);
  });

  it("ships the sources a reviewer builds from, without outputs, dependencies or secrets", () => {
    const paths = Object.keys(sources);
    for (const needed of [
      "package.json",
      "pnpm-lock.yaml",
      "pnpm-workspace.yaml",
      "apps/extension/package.json",
      "apps/extension/wxt.config.ts",
      "apps/extension/src/entrypoints/background.ts",
      "apps/extension/public/icon/128.png",
      "apps/extension/store/README.md",
      "packages/core/package.json",
    ])
      expect(paths).toContain(needed);
    expect(paths.filter((p) => /(^|\/)(node_modules|\.output|dist|\.env)(\/|$)/.test(p))).toEqual(
      [],
    );
  });

  it("keeps the key in development builds, which the local stack and these tests load", async () => {
    // Built by global-setup.ts (`wxt build`, a development build).
    const manifest = JSON.parse(
      await readFile(join(OUTPUT, "chrome-mv3/manifest.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(manifest.key).toBe(CHROME_PUBLIC_KEY);
  });

  it("refuses to zip a development build", async () => {
    await expect(
      run(WXT, ["zip"], { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" } }),
    ).rejects.toThrow(/--mode store/);
  });

  it("passes Mozilla's add-on linter: no error, no warning from Overture's own code", async () => {
    const dir = join(OUTPUT, "firefox-mv2-store");
    // The linter exits non-zero when it finds errors; its report is on stdout either way.
    const { stdout } = await run(LINTER, ["--output", "json", dir]).catch((error: unknown) => ({
      stdout: (error as { stdout?: string }).stdout ?? "",
    }));
    const report = JSON.parse(stdout) as LintReport;
    expect(report.errors).toEqual([]);
    const ours = [];
    for (const warning of report.warnings)
      if (!(await isThirdParty(dir, warning))) ours.push(warning);
    expect(ours).toEqual([]);
    expect(report.notices).toEqual([]);
  });

  it("never writes HTML from a string in Overture's own code (the linter's one third-party warning)", async () => {
    for (const file of await sourceFiles(join(ROOT, "src")))
      expect(await readFile(file, "utf8"), file).not.toMatch(/innerHTML|dangerouslySetInnerHTML/);
  });
});
