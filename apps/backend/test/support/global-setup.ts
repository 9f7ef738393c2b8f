import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { wrapPglite } from "../../src/db/pglite.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data folder; suites load it instead of running initdb. */
    pgliteTemplate: string;
  }
}

/**
 * Runs initdb and the migrations once for the whole run (~3 s of CPU) instead of once per worker;
 * every PGlite suite then loads the dumped folder (~0.9 s).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "overture-pglite-"));
  const client = new PGlite();
  await client.waitReady;
  await wrapPglite(client).migrate();
  const dump = await client.dumpDataDir("none");
  await client.close();
  const file = join(dir, "template.tar");
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  return () => rm(dir, { recursive: true, force: true });
}
