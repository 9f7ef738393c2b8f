import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };
import { packagesReachedFrom } from "../src/form/import-graph.fixtures.ts";

// Core runs unchanged in the browser, the backend and the emulator. Lint forbids Node imports
// and globals in src/, and the build's tsconfig has no Node types; this checks what ships.
const entries = Object.entries(packageJson.exports).flatMap(([name, target]) =>
  typeof target === "string" ? [] : [[name, target["@overture/source"]] as const],
);

describe("published entry points", () => {
  it("are the concerns of the package, each built to JavaScript and declarations", () => {
    expect(entries.map(([name]) => name)).toEqual([
      "./webhook",
      "./webhook/sync",
      "./webhook/diagnose",
      "./form",
      "./task",
      "./schemas",
      "./music",
      "./errors",
      "./oauth",
      "./client",
      "./text",
      "./receiver",
      "./receiver/node",
    ]);
    for (const [name, target] of Object.entries(packageJson.exports)) {
      if (typeof target === "string") continue;
      const stem = target["@overture/source"].replace(/^\.\/src\//, "").replace(/\.ts$/, "");
      expect(target, name).toEqual({
        "@overture/source": `./src/${stem}.ts`,
        types: `./dist/${stem}.d.ts`,
        default: `./dist/${stem}.js`,
      });
    }
  });

  it.each(entries)("%s reaches no package but zod, and nothing from Node", async (_, target) => {
    const reached = await packagesReachedFrom(new URL(`../${target}`, import.meta.url));
    expect(reached.filter((name) => name !== "zod")).toEqual([]);
  });
});
