import { describe, expect, it } from "vitest";
import { platformErrorBodySchema } from "./index.ts";

describe("platformErrorBodySchema (spec 7)", () => {
  it.each([
    ["the emulator's { error, message }", { error: "quota_exceeded", message: "Quota full" }],
    ["RFC 6749 { error, error_description }", { error: "invalid_grant", error_description: "x" }],
    ["a bare { message }", { message: "prompt is required" }],
    ["a nested { error: { code, message } }", { error: { code: "E400", message: "bad" } }],
    ["a { detail }", { detail: [{ msg: "field required" }] }],
    ["the live { error_message }", { error_message: "必传参数: prompt" }],
  ])("parses %s", (_name, body) => {
    expect(platformErrorBodySchema.parse(body)).toEqual(body);
  });

  it("rejects an error_message that is not text", () => {
    expect(platformErrorBodySchema.safeParse({ error_message: 42 }).success).toBe(false);
  });

  it("rejects an error that is neither a string nor an object", () => {
    expect(platformErrorBodySchema.safeParse({ error: 42 }).success).toBe(false);
  });
});
