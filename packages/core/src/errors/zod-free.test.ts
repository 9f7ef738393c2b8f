import { describe, expect, it } from "vitest";
import { packagesReachedFrom } from "../form/import-graph.fixtures.ts";

describe("./errors bundle", () => {
  it("imports no package, so the extension can check error codes without zod", async () => {
    expect(await packagesReachedFrom(new URL("./index.ts", import.meta.url))).toEqual([]);
  });
});
