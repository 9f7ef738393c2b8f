import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { inlineSql, quote } from "./script.ts";

describe("inlineSql", () => {
  it("inlines each parameter as a literal", () => {
    const text = inlineSql(sql`select ${"a"}::text, ${42}, ${true}, ${null}`);
    expect(text).toBe("select 'a'::text, 42, true, null");
  });

  it("escapes quotes and backslashes, and never reads a value as a placeholder", () => {
    const text = inlineSql(sql`select ${"it's $2 \\ x"}, ${"second"}`);
    expect(text).toBe(String.raw`select  E'it''s $2 \\ x', 'second'`);
  });

  it("writes dates as ISO text and objects as JSON text", () => {
    const text = inlineSql(sql`select ${new Date(0)}, ${{ a: "b'c" }}`);
    expect(text).toBe(`select '1970-01-01T00:00:00.000Z', '{"a":"b''c"}'`);
  });

  it("refuses a number the database could not read back", () => {
    expect(() => inlineSql(sql`select ${Number.NaN}`)).toThrow(/finite/);
  });
});

describe("quote", () => {
  it.each([
    ["plain text", "lofi hip hop"],
    ["quotes", `it's "fine"`],
    ["a backslash", String.raw`C:\music`],
    ["backslashes before quotes", String.raw`\' \\''`],
    ["JSON with escapes", JSON.stringify({ lyrics: 'a\nb "c" d\'s', n: "\u0000" })],
    ["nothing", ""],
  ])("writes %s exactly as node-postgres' escapeLiteral does", (_, text) => {
    expect(quote(text)).toBe(pg.escapeLiteral(text));
  });
});
