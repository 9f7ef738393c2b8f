import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { makeScratch, removeStaleScratch } from "../../src/services/archive/scratch.ts";

const root = mkdtempSync(join(tmpdir(), "overture-stale-scratch-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A SIGKILLed archiver leaves its scratch folder (44 MB a track): the next start removes it. */
it("removes the scratch of dead processes and old unnamed folders, never a live archiver's", async () => {
  const live = await makeScratch(root);
  const dead = join(root, `overture-archive-2147483646@${hostname()}-abcdef`);
  const otherHost = join(root, "overture-archive-12@elsewhere.example-abcdef");
  const legacy = join(root, "overture-archive-Xy12Ab");
  const unrelated = join(root, "something-else");
  for (const dir of [dead, otherHost, legacy, unrelated]) mkdirSync(dir);
  const old = new Date(Date.now() - 11 * 60_000);
  utimesSync(legacy, old, old);

  expect(await removeStaleScratch(root, 10 * 60_000)).toBe(2);
  expect(readdirSync(root).sort()).toEqual(
    [live, otherHost, unrelated].map((p) => p.slice(root.length + 1)).sort(),
  );
  // Once another host's folder outlives a lease, it goes too.
  expect(await removeStaleScratch(root, 10 * 60_000, Date.now() + 11 * 60_000)).toBe(2);
  expect(readdirSync(root)).toEqual(["something-else"]);
});
