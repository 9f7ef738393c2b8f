import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * What the main job must keep between runs: the token-encryption key (the PGlite data sealed with
 * it must stay readable) and the demo account's webhook secret. Stored in the data folder with
 * owner-only permissions; both are local demo values.
 */
export interface MainJobState {
  encryptionKey: string;
  webhookSecret: string;
}

export function loadOrCreateState(dataDir: string): MainJobState {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, "main-job.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as MainJobState;
  const state: MainJobState = {
    encryptionKey: randomBytes(32).toString("base64"),
    webhookSecret: `whsec_${randomBytes(24).toString("base64url")}`,
  };
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  return state;
}
