// Test-only: follows the relative imports of a module and lists the packages it reaches, so a
// test can prove that a bundle-sensitive entry point (./form, ./music) stays dependency-free.
interface Fs {
  readFileSync(path: URL, encoding: "utf8"): string;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\s*\(?\s*["']([^"']+)["']/g;

/** Non-relative import specifiers reachable from `entry` through its relative imports. */
export async function packagesReachedFrom(entry: URL): Promise<string[]> {
  // Loaded at run time: core's tsconfig has no Node types, and only tests read files.
  const fsModule = "node:fs";
  const fs = (await import(/* @vite-ignore */ fsModule)) as Fs;
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (seen.has(file.href)) continue;
    seen.add(file.href);
    for (const match of withoutComments(fs.readFileSync(file, "utf8")).matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? "";
      if (specifier.startsWith(".")) queue.push(new URL(specifier, file));
      else packages.add(specifier);
    }
  }
  return [...packages].sort();
}

/** Source without block comments and whole-line comments: TSDoc examples import Node freely. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}
