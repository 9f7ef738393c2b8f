import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/open.ts";

// A fresh folder runs initdb (seconds of CPU on a small machine): one folder for both tests.
const INITDB_TIMEOUT_MS = 120_000;

describe("embedded Postgres in a data folder", () => {
  const root = mkdtempSync(join(tmpdir(), "overture-pglite-folder-"));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it(
    "initialises a fresh folder in a child process, leaves no staging folder, and reopens it",
    async () => {
      const dataDir = join(root, "nested", "pglite");
      const fresh = await openDatabase({ driver: "pglite", dataDir });
      await fresh.migrate();
      await fresh.ping();
      await fresh.close();
      expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
      expect(readdirSync(dirname(dataDir))).toEqual(["pglite"]);
      const reopened = await openDatabase({ driver: "pglite", dataDir });
      await reopened.migrate();
      await reopened.ping();
      await reopened.close();
    },
    INITDB_TIMEOUT_MS,
  );

  it(
    "fills an existing empty folder in place (a mount point cannot be replaced)",
    async () => {
      const dataDir = join(root, "mounted");
      mkdirSync(dataDir);
      const database = await openDatabase({ driver: "pglite", dataDir });
      await database.ping();
      await database.close();
      expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
      expect(readdirSync(root).sort()).toEqual(["mounted", "nested"]);
    },
    INITDB_TIMEOUT_MS,
  );
});
