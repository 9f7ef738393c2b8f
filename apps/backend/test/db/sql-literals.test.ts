import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { literal } from "../../src/db/script.ts";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { selectRows } from "../support/sql.ts";

/** Texts that could end a literal early if any were written wrong (db/script.ts). */
const TRICKY = [
  "",
  "plain",
  "it's",
  String.raw`C:\music\n`,
  String.raw`\' \\''`,
  "$ov$); drop table tasks; --",
  "ends with the tag's start $ov",
  "ends with $o",
  "ends with $",
  "$$ and $1 and $tag$",
  "lines\nand\ttabs ♪ 🎵",
  JSON.stringify({ lyrics: "[verse]\nDon't stop\n", quote: '"', money: "$ov$" }),
];

describeEachDriver("SQL literals written into statement text", (driver) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase(driver);
  });
  afterAll(() => handle.drop());

  it.each(TRICKY.map((text) => [JSON.stringify(text), text]))(
    "reads %s back exactly",
    async (_, text) => {
      const [row] = await selectRows<{ v: string }>(
        handle.database.db,
        sql.raw(`select${literal(text)}::text as v, 1 as after`),
      );
      expect(row).toEqual({ v: text, after: 1 });
    },
  );

  it("reads a JSON object back as the same value", async () => {
    const value = { lyrics: "a\nb 'c' \\d", tag: "$ov$", n: [1, 2] };
    const [row] = await selectRows<{ v: unknown }>(
      handle.database.db,
      sql.raw(`select${literal(value)}::jsonb as v`),
    );
    expect(row?.v).toEqual(value);
  });
});
