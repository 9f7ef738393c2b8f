import { describe, expect, it } from "vitest";
import { packagesReachedFrom } from "../form/import-graph.fixtures.ts";

describe("./task bundle", () => {
  it("imports no package at all, zod included, so the extension can bundle it", async () => {
    expect(await packagesReachedFrom(new URL("./index.ts", import.meta.url))).toEqual([]);
  });
});
