import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(process.cwd(), "src");
// `import type` and `export type` are left out: the compiler erases them, so they reach no bundle
// (the views name the backend's JSON types that way, from `@overture/backend/api`).
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s(?!type\s)[^;]*?from\s*["']([^"']+)["']|import\s*\(?\s*["']([^"']+)["']/g;

/** Every module and package reachable from an entry through its imports (relative ones followed). */
function reach(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [resolve(ROOT, entry)];
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? "";
      if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  }
  return { files: [...files].map((f) => f.slice(ROOT.length + 1)), packages: [...packages] };
}

const VIEWS = [
  "entrypoints/popup/main.tsx",
  "entrypoints/sidepanel/main.tsx",
  "entrypoints/options/main.tsx",
];
const ALLOWED_CORE = ["@overture/core/music", "@overture/core/task", "@overture/core/form"];
/** The backend's client entry: its run-time part is constants only (checked below). */
const BACKEND_API = "@overture/backend/api";
const BACKEND_API_FILE = resolve(process.cwd(), "../backend/src/api.ts");

/** A module's run-time imports and re-exports (comments left out: their examples are no imports). */
function runtimeImports(file: string): string[] {
  const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  return [...code.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? "");
}

describe.each(VIEWS)("the %s bundle", (entry) => {
  it("imports only core's zod-free subpaths, the backend's constants, and no zod or hono", () => {
    const { packages } = reach(entry);
    const ours = packages.filter((p) => p.startsWith("@overture/"));
    expect(ours.filter((p) => !ALLOWED_CORE.includes(p) && p !== BACKEND_API)).toEqual([]);
    expect(packages.filter((p) => p === "zod" || p.startsWith("hono"))).toEqual([]);
  });

  it("never reaches the background's modules, where the session token lives", () => {
    expect(reach(entry).files.filter((f) => f.startsWith("lib/background/"))).toEqual([]);
  });

  it("never reaches test-only modules", () => {
    expect(
      reach(entry).files.filter((f) => f.startsWith("testing/") || f.includes(".test.")),
    ).toEqual([]);
  });
});

describe("@overture/backend/api at run time", () => {
  it("re-exports only files that import nothing, so a view loads constants and no zod or hono", () => {
    const reexports = runtimeImports(BACKEND_API_FILE);
    expect(reexports).toContain("./schemas/task-states.ts");
    for (const specifier of reexports) {
      expect(specifier).toMatch(/^\.\//);
      expect(runtimeImports(resolve(dirname(BACKEND_API_FILE), specifier))).toEqual([]);
    }
  });
});

describe("the background bundle", () => {
  it("reaches the background's modules (the graph is really followed)", () => {
    expect(reach("entrypoints/background.ts").files).toContain("lib/background/session-store.ts");
  });

  it("never reaches test-only modules", () => {
    expect(
      reach("entrypoints/background.ts").files.filter((f) => f.startsWith("testing/")),
    ).toEqual([]);
  });
});
