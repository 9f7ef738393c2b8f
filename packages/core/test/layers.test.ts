import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The folders of src/, lowest first: a module imports from its own folder or from folders
// below it, never above, so each layer reads without the ones built on it.
const LAYERS = [
  "text",
  "errors",
  "task",
  "form",
  "music",
  "schemas",
  "webhook",
  "transport",
  "oauth",
  "client",
  "receiver",
] as const;

const SRC = join(import.meta.dirname, "../src");
const IMPORT = /(?:import|export)[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !/\.(test|test-d|fixtures)\.ts$/.test(entry.name)
      ? [path]
      : [];
  });
}

/** Every import of a source file that reaches a folder above its own. */
function upwardImports(): string[] {
  const rank = (file: string) => LAYERS.indexOf(relative(SRC, file).split("/")[0] as never);
  return sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(IMPORT)]
      .map((match) => join(file, "..", match[1] ?? ""))
      .filter((target) => rank(target) > rank(file))
      .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`),
  );
}

describe("core's folders", () => {
  it("are each one layer of the list", () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.map((e) => e.name).sort()).toEqual([...LAYERS].sort());
  });

  it("import only from their own folder or one below it", () => {
    expect(upwardImports()).toEqual([]);
  });
});
