import { describe, expect, it } from "vitest";
import { packagesReachedFrom } from "../form/import-graph.fixtures.ts";

describe("./text bundle", () => {
  it("imports no package at all, zod included", async () => {
    expect(await packagesReachedFrom(new URL("./index.ts", import.meta.url))).toEqual([]);
  });
});
