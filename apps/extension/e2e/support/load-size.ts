import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * What a view of the built extension loads, gzipped at level 9 (issue 16): at open (its HTML,
 * the scripts, module preloads and styles it names, and their static imports) and later (the
 * chunks its code `import()`s, with their own static imports, less what is already loaded).
 * Used by the browser tests (the budget below) and by `pnpm bench` (BENCHMARKS.md item 6).
 */

/** The popup's and the side panel's budget for what loads at open (issue 16), in KiB gzipped. */
export const OPEN_BUDGET_KB = 15;

export interface LoadedFile {
  file: string;
  /** Gzipped bytes. */
  bytes: number;
}

export interface LoadSize {
  atOpen: LoadedFile[];
  later: LoadedFile[];
  /** Gzipped bytes of `atOpen`, and of `later`. */
  atOpenBytes: number;
  laterBytes: number;
}

const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+)["'`]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g;
const HTML_ASSET = /(?:src|href)="\/?([^"]+\.(?:js|css))"/g;
// Vite's preload list: what a chunk's `import()`s need (their stylesheets too), from the root.
const PRELOAD_LIST = /__vite__mapDeps=[^;]*?\[([^\]]*)\]/g;
const LISTED_FILE = /["'`]([^"'`]+\.(?:js|css))["'`]/g;

/** `entry` (an HTML page or a script, relative to `build`), as the browser would load it. */
export function loadSize(build: string, entry: string): LoadSize {
  const gz = (file: string) => gzipSync(readFileSync(join(build, file)), { level: 9 }).length;
  const follow = (start: string[], known: Set<string>, dynamic: Set<string>): string[] => {
    const found: string[] = [];
    const queue = [...start];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (known.has(file)) continue;
      known.add(file);
      found.push(file);
      if (file.endsWith(".html")) {
        for (const match of readFileSync(join(build, file), "utf8").matchAll(HTML_ASSET))
          if (match[1]) queue.push(match[1]);
      }
      if (!file.endsWith(".js")) continue;
      const code = readFileSync(join(build, file), "utf8");
      const dir = dirname(file);
      for (const match of code.matchAll(STATIC_IMPORT))
        if (match[1]) queue.push(join(dir, match[1]));
      for (const match of code.matchAll(DYNAMIC_IMPORT))
        if (match[1]) dynamic.add(join(dir, match[1]));
      for (const list of code.matchAll(PRELOAD_LIST))
        for (const match of (list[1] ?? "").matchAll(LISTED_FILE))
          if (match[1]) dynamic.add(match[1]);
    }
    return found;
  };
  const known = new Set<string>();
  const dynamic = new Set<string>();
  const atOpen = follow([entry], known, dynamic);
  // Chunks loaded later may import more chunks later still: all of them count as "later".
  const later: string[] = [];
  for (let pending = [...dynamic]; pending.length > 0;) {
    const next = new Set<string>();
    later.push(...follow(pending, known, next));
    pending = [...next].filter((file) => !known.has(file));
  }
  const sized = (files: string[]) => files.map((file) => ({ file, bytes: gz(file) }));
  const sum = (files: LoadedFile[]) => files.reduce((total, f) => total + f.bytes, 0);
  const open = sized(atOpen);
  const rest = sized(later);
  return { atOpen: open, later: rest, atOpenBytes: sum(open), laterBytes: sum(rest) };
}
