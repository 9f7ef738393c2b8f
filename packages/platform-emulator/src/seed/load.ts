import { readFile } from "node:fs/promises";
import { parseSeed, type EmulatorSeed } from "./schema.ts";

/** Reads and validates a seed JSON file (CLI `--seed`). */
export async function loadSeedFile(path: string): Promise<EmulatorSeed> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read seed file ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseSeed(json);
}
