// Test-only: the API reference a package commits to the repository's docs/reference/ (TypeDoc
// with typedoc-plugin-markdown, configured by the package's typedoc.json over typedoc.base.json)
// generated again into a scratch folder and compared file by file, so a reference that no longer
// says what the source says fails the package's tests.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand } from "./command.ts";

/** What differs between the committed reference and a fresh one. */
export interface ReferenceDrift {
  /** TypeDoc's own complaints (an export without TSDoc, a broken `{@link}`), when it failed. */
  readonly failure?: string;
  /** Files the source would generate that are not committed. */
  readonly missing: string[];
  /** Committed files the source no longer generates. */
  readonly extra: string[];
  /** Files whose committed text differs from the generated one. */
  readonly changed: string[];
}

/**
 * Generates the reference of the package in `packageDir` into a scratch folder and compares it
 * with the committed one in `committed`. `pnpm --filter <package> docs` writes it anew.
 */
export async function referenceDrift(packageDir: URL, committed: URL): Promise<ReferenceDrift> {
  const scratch = await mkdtemp(join(tmpdir(), "overture-reference-"));
  try {
    const typedoc = fileURLToPath(new URL("node_modules/typedoc/bin/typedoc", packageDir));
    const result = await runCommand(process.execPath, [typedoc, "--out", scratch], {
      cwd: fileURLToPath(packageDir),
      timeoutMs: 240_000,
    });
    if (result.code !== 0) {
      return { failure: result.stdout + result.stderr, missing: [], extra: [], changed: [] };
    }
    const fresh = await filesUnder(scratch);
    const kept = await filesUnder(fileURLToPath(committed));
    const changed: string[] = [];
    for (const file of fresh.filter((name) => kept.includes(name))) {
      const [a, b] = await Promise.all([
        readFile(join(scratch, file), "utf8"),
        readFile(join(fileURLToPath(committed), file), "utf8"),
      ]);
      if (a !== b) changed.push(file);
    }
    return {
      missing: fresh.filter((file) => !kept.includes(file)),
      extra: kept.filter((file) => !fresh.includes(file)),
      changed,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
}
