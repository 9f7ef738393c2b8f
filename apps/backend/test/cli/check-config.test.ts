import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPlatformEmulator, DEFAULT_SEED } from "@overture/platform-emulator";
import { afterAll, describe, expect, it } from "vitest";
import { checkConfig } from "../../src/cli/check-config.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { PLATFORM_BASE_URL, PUBLIC_URL, testEnv } from "../support/harness.ts";

/**
 * check-config asks the platform's token endpoint to exchange a made-up code with the backend's
 * client credentials: the repository's emulator, in-process (its `app.request` as fetch), tells
 * a refused client (401 invalid_client) from a refused code (400 invalid_grant) as RFC 6749 does.
 */
const emu = createPlatformEmulator({
  clock: "manual",
  autoApprove: true,
  baseUrl: PLATFORM_BASE_URL,
  seed: {
    ...DEFAULT_SEED,
    applications: DEFAULT_SEED.applications.map((app) => ({
      ...app,
      redirect_uri: `${PUBLIC_URL}/oauth/callback`,
    })),
  },
});
const emulatorFetch: typeof fetch = async (input, init) =>
  emu.app.request(new Request(input, init));

const dir = mkdtempSync(join(tmpdir(), "overture-check-token-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function check(overrides: Record<string, string>) {
  const out: string[] = [];
  const env = testEnv({ PGLITE_DATA_DIR: join(dir, "db"), ...overrides });
  const io: CliIo = { env, out: (l) => out.push(l), err: (l) => out.push(l) };
  const code = await checkConfig(io, emulatorFetch);
  return { code, out: out.join("\n") };
}

describe("check-config's platform probe, against the emulator", () => {
  it("passes the right client secret as accepted credentials (the made-up code is refused)", async () => {
    const result = await check({});
    expect(result.out).toContain(
      `platform ${PLATFORM_BASE_URL}: ✓ client credentials accepted (the token endpoint refused only the probe's made-up code: HTTP 400, invalid_grant)`,
    );
    expect(result.code).toBe(0);
  });

  it("fails a wrong client secret, naming the variables to check and never the secret (exit 1)", async () => {
    const result = await check({ PLATFORM_CLIENT_SECRET: "wrong-secret-value-xyz" });
    expect(result.out).toContain(
      `platform ${PLATFORM_BASE_URL}: ✗ the token endpoint refused the client credentials (HTTP 401, invalid_client): check PLATFORM_CLIENT_ID / PLATFORM_CLIENT_SECRET`,
    );
    expect(result.out).not.toContain("wrong-secret-value-xyz");
    expect(result.code).toBe(1);
  });

  it("fails an unknown client id the same way", async () => {
    const result = await check({ PLATFORM_CLIENT_ID: "no-such-app" });
    expect(result.out).toContain("✗ the token endpoint refused the client credentials");
    expect(result.code).toBe(1);
  });

  it("still probes the credentials when other variables are wrong (exit 2 for the configuration)", async () => {
    const result = await check({ SESSION_TTL_DAYS: "-1", PLATFORM_CLIENT_SECRET: "wrong" });
    expect(result.out).toContain("✗ the token endpoint refused the client credentials");
    expect(result.code).toBe(2);
  });

  it("warns when PUBLIC_URL points at this machine on another port than PORT", async () => {
    const result = await check({ PUBLIC_URL: "http://127.0.0.1:8787", PORT: "18797" });
    expect(result.out).toContain(
      "warning: PUBLIC_URL http://127.0.0.1:8787 points at this machine on port 8787, but the server listens on PORT=18797",
    );
    expect(result.code).toBe(0);
  });

  it.each([
    ["PUBLIC_URL unset (it follows PORT)", { PUBLIC_URL: "", PORT: "18797" }],
    ["the same port", { PUBLIC_URL: "http://127.0.0.1:18797", PORT: "18797" }],
    [
      "a proxy declared",
      { PUBLIC_URL: "http://127.0.0.1:8787", PORT: "18797", TRUST_PROXY: "true" },
    ],
    ["another host", { PUBLIC_URL: "https://overture.example.com", PORT: "18797" }],
  ])("does not warn about PUBLIC_URL with %s", async (_, env) => {
    const result = await check(env);
    expect(result.out).not.toContain("warning: PUBLIC_URL");
  });
});
