import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const SCRIPT = resolve(import.meta.dirname, "../../scripts/bundle.mjs");
const target = mkdtempSync(join(tmpdir(), "overture-bundle-refusal-"));
afterAll(() => {
  rmSync(target, { recursive: true, force: true });
});

it("refuses a non-empty target folder with one line and exit 2, no stack trace", async () => {
  writeFileSync(join(target, "keep.txt"), "someone's file");
  const failed = await promisify(execFile)(process.execPath, [SCRIPT, target]).then(
    () => undefined,
    (error: unknown) => error as { code: number; stderr: string },
  );
  expect(failed?.code).toBe(2);
  expect(failed?.stderr).toBe(
    `bundle:backend: ${target} exists and is not empty: give a new folder\n`,
  );
});
