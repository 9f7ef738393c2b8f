import pg from "pg";
import { describe, expect, it } from "vitest";
import { literal, quote } from "./script.ts";

describe("literal", () => {
  it("writes text quoted, numbers, booleans and null as themselves", () => {
    expect([literal("a"), literal(42), literal(true), literal(null)]).toEqual([
      "'a'",
      "42",
      "true",
      "null",
    ]);
  });

  it("escapes quotes and backslashes", () => {
    expect(literal("it's $2 \\ x")).toBe(String.raw` E'it''s $2 \\ x'`);
  });

  it("writes dates as ISO text and objects as JSON text", () => {
    expect(literal(new Date(0))).toBe("'1970-01-01T00:00:00.000Z'");
    expect(literal({ a: "b'c" })).toBe(`'{"a":"b''c"}'`);
  });

  it("refuses a number the database could not read back", () => {
    expect(() => literal(Number.NaN)).toThrow(/finite/);
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
