import { describe, expect, it } from "vitest";
import * as diagnose from "./diagnose/index.ts";
import * as webhook from "./index.ts";
import * as sync from "./sync/index.ts";

// The fast path and the diagnosis have their own subpaths; ./webhook re-exports them for the
// imports written before, the same functions, so moving an import changes nothing.
describe("the webhook subpaths", () => {
  it("./webhook/sync holds the synchronous fast path", () => {
    expect(Object.keys(sync).sort()).toEqual([
      "constantTimeEqualHex",
      "hmacSha256HexFrom",
      "hmacSha256HexFromHash",
      "verifyWebhookSync",
    ]);
  });

  it("./webhook/diagnose holds the rule-by-rule diagnosis", () => {
    expect(Object.keys(diagnose)).toEqual(["diagnoseWebhook"]);
  });

  it("./webhook still exports each of them, the same function", () => {
    for (const [name, value] of Object.entries({ ...sync, ...diagnose })) {
      expect(webhook[name as keyof typeof webhook], name).toBe(value);
    }
  });
});
