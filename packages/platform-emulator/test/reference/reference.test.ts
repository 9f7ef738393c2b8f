import { describe, expect, it } from "vitest";
import { referenceDrift } from "@overture/packaging/reference";

// docs/reference/platform-emulator is generated from the TSDoc of the package's two entry points
// (typedoc.json); it is committed so a reader browses it on GitHub, and must say what the source
// says. typedoc.json requires TSDoc on every export (notDocumented), so an export without it fails
// here too.
describe("the API reference in docs/reference/platform-emulator", () => {
  it("is what `pnpm --filter @overture/platform-emulator docs` generates from the source today", async () => {
    const drift = await referenceDrift(
      new URL("../../", import.meta.url),
      new URL("../../../../docs/reference/platform-emulator/", import.meta.url),
    );
    expect(
      drift,
      "run `pnpm --filter @overture/platform-emulator docs` and commit docs/reference/platform-emulator",
    ).toEqual({ missing: [], extra: [], changed: [] });
  }, 300_000);
});
