import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };
import { packagesReachedFrom } from "../src/form/import-graph.fixtures.ts";

// Core runs unchanged in the browser, the backend and the emulator. Lint forbids Node imports
// and globals in src/, and the build's tsconfig has no Node types; this checks what ships.
const entries = Object.entries(packageJson.exports).filter(([, target]) => target.endsWith(".ts"));

describe("published entry points", () => {
  it("are the eight concerns of the package", () => {
    expect(entries.map(([name]) => name)).toEqual([
      "./webhook",
      "./form",
      "./task",
      "./schemas",
      "./music",
      "./errors",
      "./oauth",
      "./client",
    ]);
  });

  it.each(entries)("%s reaches no package but zod, and nothing from Node", async (_, target) => {
    const reached = await packagesReachedFrom(new URL(`../${target}`, import.meta.url));
    expect(reached.filter((name) => name !== "zod")).toEqual([]);
  });
});
