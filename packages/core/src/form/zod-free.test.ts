import { describe, expect, it } from "vitest";
import { packagesReachedFrom } from "./import-graph.fixtures.ts";

describe("./form bundle", () => {
  it("imports no package at all, zod included", async () => {
    expect(await packagesReachedFrom(new URL("./index.ts", import.meta.url))).toEqual([]);
  });

  it("is checked by an import scan that does see packages", async () => {
    const schemas = new URL("../schemas/index.ts", import.meta.url);
    expect(await packagesReachedFrom(schemas)).toContain("zod");
  });
});
