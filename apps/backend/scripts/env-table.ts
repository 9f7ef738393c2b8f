import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { envTable } from "../src/env/docs.ts";

/**
 * `pnpm --filter @overture/backend docs:env`: rewrites the environment table of
 * docs/self-hosting.md between its markers, then formats the page as the repository does.
 */
export const SELF_HOSTING_DOC = fileURLToPath(
  new URL("../../../docs/self-hosting.md", import.meta.url),
);
export const START = "<!-- env-table:start (generated from apps/backend/src/env/docs.ts) -->";
export const END = "<!-- env-table:end -->";

/** The text between the markers. */
export function envSection(text: string): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`markers ${START} … ${END} not found`);
  return text.slice(start + START.length, end);
}

export function withEnvTable(text: string): string {
  const section = envSection(text);
  const at = text.indexOf(START) + START.length;
  return `${text.slice(0, at)}\n\n${envTable()}\n\n${text.slice(at + section.length)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const prettier = await import("prettier");
  const updated = withEnvTable(readFileSync(SELF_HOSTING_DOC, "utf8"));
  const options = await prettier.resolveConfig(SELF_HOSTING_DOC);
  writeFileSync(
    SELF_HOSTING_DOC,
    await prettier.format(updated, { ...options, filepath: SELF_HOSTING_DOC }),
  );
}
