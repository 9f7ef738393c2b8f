import { describe, expect, it } from "vitest";
import { platformErrorBodySchema } from "./index.ts";

describe("platformErrorBodySchema (spec 7)", () => {
  it.each([
    ["the emulator's { error, message }", { error: "quota_exceeded", message: "Quota full" }],
    ["RFC 6749 { error, error_description }", { error: "invalid_grant", error_description: "x" }],
    ["a bare { message }", { message: "prompt is required" }],
    ["a nested { error: { code, message } }", { error: { code: "E400", message: "bad" } }],
    ["a { detail }", { detail: [{ msg: "field required" }] }],
  ])("parses %s", (_name, body) => {
    expect(platformErrorBodySchema.parse(body)).toEqual(body);
  });

  it("rejects an error that is neither a string nor an object", () => {
    expect(platformErrorBodySchema.safeParse({ error: 42 }).success).toBe(false);
  });
});
