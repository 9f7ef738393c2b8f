import { describe, expect, it } from "vitest";
import { referenceDrift } from "@overture/packaging/reference";

// docs/reference/core is generated from the TSDoc of every export (typedoc.json); it is
// committed so a reader browses it on GitHub, and must say what the source says.
describe("the API reference in docs/reference/core", () => {
  it("is what `pnpm --filter @overture/core docs` generates from the source today", async () => {
    const drift = await referenceDrift(
      new URL("../", import.meta.url),
      new URL("../../../docs/reference/core/", import.meta.url),
    );
    expect(drift, "run `pnpm --filter @overture/core docs` and commit docs/reference/core").toEqual(
      {
        missing: [],
        extra: [],
        changed: [],
      },
    );
  }, 300_000);
});
