// @vitest-environment node
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { DEFAULT_SEED } from "@overture/platform-emulator";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * DESIGN "Who talks to whom": the extension never holds the platform's `client_secret`, OAuth or
 * proxy tokens. This scans what ships — every file of the built extension (`.output/**`, both
 * browsers) — for the secret's name, the seeded secret and token values, and the backend's
 * secret-bearing variable names. `pnpm test` builds first (turbo); a bare run builds here.
 */
const ROOT = resolve(import.meta.dirname, "..");
const OUTPUT = join(ROOT, ".output");
const TARGETS = ["chrome-mv3", "firefox-mv2"];

const SECRET_VALUES = [
  ...DEFAULT_SEED.applications.map((app) => app.client_secret),
  ...DEFAULT_SEED.accessTokens.map((token) => token.token),
];
const SECRET_PATTERNS = [
  /client[_-]?secret/i,
  /[A-Z_]*CLIENT_SECRET[A-Z_]*/,
  /TOKEN_ENCRYPTION_KEYS/,
  /refresh_token/,
  /proxy_access_token/,
  /grant_type/,
  /whsec_[A-Za-z0-9]{8,}/,
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** Every hit of a secret value or pattern in the files given, as "file: what". */
function findSecrets(contents: Map<string, string>): string[] {
  const hits: string[] = [];
  for (const [file, text] of contents) {
    for (const value of SECRET_VALUES) if (text.includes(value)) hits.push(`${file}: ${value}`);
    for (const pattern of SECRET_PATTERNS) {
      const match = pattern.exec(text);
      if (match) hits.push(`${file}: ${match[0]}`);
    }
  }
  return hits;
}

describe("the built extension", () => {
  const contents = new Map<string, string>();
  beforeAll(() => {
    const missing = TARGETS.filter((t) => !existsSync(join(OUTPUT, t, "manifest.json")));
    if (missing.includes("chrome-mv3"))
      execFileSync("npx", ["wxt", "build"], { cwd: ROOT, stdio: "inherit" });
    if (missing.includes("firefox-mv2"))
      execFileSync("npx", ["wxt", "build", "-b", "firefox"], { cwd: ROOT, stdio: "inherit" });
    for (const target of TARGETS) {
      for (const file of files(join(OUTPUT, target)))
        contents.set(relative(OUTPUT, file), readFileSync(file, "latin1"));
    }
  }, 300_000);

  it("is what gets scanned: both builds, with the background's code in them", () => {
    for (const target of TARGETS) {
      const background = contents.get(join(target, "background.js")) ?? "";
      expect(background).toContain("/api/events");
    }
    expect(contents.size).toBeGreaterThan(10);
  });

  it("holds no client_secret, no seeded secret or token value, and no secret-bearing setting", () => {
    expect(findSecrets(contents)).toEqual([]);
  });

  it("would notice a secret that slipped in (the scanner itself)", () => {
    const planted = new Map([
      ["a.js", `const c={client_secret:"${SECRET_VALUES[0] ?? ""}"}`],
      ["b.js", `fetch(u,{body:"grant_type=refresh_token"})`],
      ["c.js", `const t="${DEFAULT_SEED.accessTokens[0].token}"`],
    ]);
    expect(findSecrets(planted).length).toBeGreaterThanOrEqual(4);
  });
});
