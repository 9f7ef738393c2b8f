import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { envTable } from "../../src/env/docs.ts";
import { envVariables } from "../../src/env/env.ts";
import { envSection, SELF_HOSTING_DOC } from "../../scripts/env-table.ts";

/** A Markdown table's cells, whitespace and alignment aside (the page is formatted by prettier). */
function cells(table: string): string[][] {
  return table
    .split("\n")
    .filter((line) => line.trim().startsWith("|") && !/^\|[\s:|-]+\|$/.test(line.trim()))
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, "")
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

it("docs/self-hosting.md lists every environment variable as env.ts defines it", () => {
  const documented = cells(envSection(readFileSync(SELF_HOSTING_DOC, "utf8")));
  expect(
    documented,
    "the table drifted from env.ts: run `pnpm --filter @overture/backend docs:env`",
  ).toEqual(cells(envTable()));
  // Every variable the backend reads, once.
  expect(documented.slice(1).map(([name]) => name)).toEqual(
    Object.keys(envVariables.shape).map((name) => `\`${name}\``),
  );
});

it("has one line per variable in .env.example, set or commented out", () => {
  const example = readFileSync(new URL("../../.env.example", import.meta.url), "utf8");
  const missing = Object.keys(envVariables.shape).filter(
    (name) => !new RegExp(`^(# )?${name}=`, "m").test(example),
  );
  expect(missing).toEqual([]);
});
