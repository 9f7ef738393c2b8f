import pg from "pg";
import { describe, expect, it } from "vitest";
import { dollarQuote, literal, quote } from "./script.ts";

describe("literal", () => {
  it("writes text dollar-quoted, numbers, booleans and null as themselves", () => {
    expect([literal("a"), literal(42), literal(true), literal(null)]).toEqual([
      " $ov$a$ov$",
      "42",
      "true",
      "null",
    ]);
  });

  it("leaves quotes and backslashes as they are inside the dollar quotes", () => {
    expect(literal("it's $2 \\ x")).toBe(String.raw` $ov$it's $2 \ x$ov$`);
  });

  it("writes dates as ISO text and objects as JSON text", () => {
    expect(literal(new Date(0))).toBe("'1970-01-01T00:00:00.000Z'");
    expect(literal({ a: "b'c" })).toBe(` $ov$${JSON.stringify({ a: "b'c" })}$ov$`);
  });

  it("refuses a number the database could not read back", () => {
    expect(() => literal(Number.NaN)).toThrow(/finite/);
  });
});

describe("dollarQuote", () => {
  it("quotes the usual way text holding the tag or ending with its start", () => {
    for (const text of ["a $ov$ b", "ends $ov", "$ov"]) expect(dollarQuote(text)).toBe(quote(text));
  });

  it("dollar-quotes text with a lone dollar or another tag", () => {
    expect(dollarQuote("$o $ $1 $tag$")).toBe(" $ov$$o $ $1 $tag$$ov$");
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
