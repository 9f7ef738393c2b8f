import type * as NodeCrypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { freshIp, startTestBackend, type TestBackend } from "../support/harness.ts";
import { createTask, setUpTaskUser } from "../support/tasks.ts";

const BASE64URL = /^[A-Za-z0-9_-]+$/;

// Every value node:crypto's CSPRNG hands the backend's own modules in this file, as base64url:
// a one-time value must be one of these, whole, or it came from somewhere else (Math.random,
// a counter, a clock), however random it looks.
const drawn = vi.hoisted(() => new Set<string>());
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof NodeCrypto>();
  const randomBytes = (size: number) => {
    const bytes = crypto.randomBytes(size);
    drawn.add(bytes.toString("base64url"));
    return bytes;
  };
  return { ...crypto, randomBytes, default: { ...crypto, randomBytes } };
});

/**
 * Where a set of random values came from and how long they are: the random part must be
 * base64url, be exactly a value crypto.randomBytes returned (so from the CSPRNG, whole), hold
 * 32 bytes, and differ from every other. The spread of characters (Shannon entropy per
 * character, close to the 6 bits of a uniform base64url character) is printed and checked too,
 * though only the first check tells a CSPRNG from Math.random.
 */
function assessRandomness(values: readonly string[], prefix: string) {
  const parts = values.map((v) => {
    expect(v.startsWith(prefix), `${v} starts with ${prefix}`).toBe(true);
    return v.slice(prefix.length);
  });
  const counts = new Map<string, number>();
  let total = 0;
  for (const part of parts) {
    expect(part).toMatch(BASE64URL);
    for (const char of part) {
      counts.set(char, (counts.get(char) ?? 0) + 1);
      total += 1;
    }
  }
  let bitsPerChar = 0;
  for (const n of counts.values()) bitsPerChar -= (n / total) * Math.log2(n / total);
  return {
    minBits: Math.min(...parts.map((p) => p.length * 6)),
    unique: new Set(parts).size === parts.length,
    bitsPerChar,
    fromCsprng: parts.filter((part) => drawn.has(part)).length,
    parts,
  };
}

/** A sign-in taken through consent, from a fresh client address (so no rate limit is hit). */
async function completedCallback(t: TestBackend) {
  const ip = freshIp();
  const started = await t.startSignIn({ ip });
  const back = await t.authorize(started.authorizeUrl);
  return { started, back, ip };
}

// Randomness does not depend on the database: one driver.
describe("state, hand-off codes, sessions and webhook keys are unguessable", () => {
  const driver = "pglite";
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  afterAll(() => t.close());

  it.each([
    ["state", "st_"],
    ["hand-off code", "hc_"],
    ["session token", "ovs_"],
    ["webhook key", ""],
  ] as const)(
    "draws every %s whole from the CSPRNG (crypto.randomBytes): 256 bits, all distinct",
    async (kind, prefix) => {
      const values: string[] = [];
      if (kind === "state") {
        for (let i = 0; i < 100; i += 1) {
          const started = await t.startSignIn({ ip: freshIp() });
          values.push(new URL(started.authorizeUrl).searchParams.get("state") ?? "");
        }
      } else if (kind === "webhook key") {
        const user = await setUpTaskUser(t, { webhookSecret: true });
        t.emu.control.setQuota(user.namespace, 1_000);
        for (let i = 0; i < 40; i += 1) {
          const task = await createTask(t, user.session);
          const url = t.emu.control.getTask(task.platform_task_id ?? "")?.webhook_url ?? "";
          values.push(new URL(url).searchParams.get("k") ?? "");
        }
      } else {
        for (let i = 0; i < 40; i += 1) {
          const { started, back, ip } = await completedCallback(t);
          const done = await t.callback(back, { ip });
          const code = new URL(done.headers.get("location") ?? "").searchParams.get("code") ?? "";
          if (kind === "hand-off code") values.push(code);
          else {
            const redeemed = (await (await t.redeem(code, started.verifier, { ip })).json()) as {
              session_token: string;
            };
            values.push(redeemed.session_token);
          }
        }
      }
      const result = assessRandomness(values, prefix);
      console.log(
        `[randomness] ${kind}: ${values.length} samples, ${result.minBits} bits each, ${result.bitsPerChar.toFixed(3)} bits/char`,
      );
      expect(result.fromCsprng).toBe(values.length);
      expect(result.parts.every((part) => Buffer.from(part, "base64url").length === 32)).toBe(true);
      expect(result.minBits).toBeGreaterThanOrEqual(256);
      expect(result.unique).toBe(true);
      expect(result.bitsPerChar).toBeGreaterThan(5.8);
    },
    60_000,
  );
});

describeEachDriver("state, hand-off codes and sessions are single use", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  afterAll(() => t.close());

  it("honours one of ten concurrent callbacks carrying the same state, and refuses the others without a redirect", async () => {
    const { back } = await completedCallback(t);
    const responses = await Promise.all(Array.from({ length: 10 }, () => t.callback(back)));
    const codes = responses
      .filter((r) => r.status === 302)
      .map((r) => new URL(r.headers.get("location") ?? "").searchParams.get("code"));
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatch(/^hc_/);
    for (const refused of responses.filter((r) => r.status !== 302)) {
      expect(refused.status).toBe(400);
      expect(refused.headers.get("location")).toBeNull();
    }
  });

  it("redeems a hand-off code once among ten concurrent attempts", async () => {
    const { started, back, ip } = await completedCallback(t);
    const done = await t.callback(back, { ip });
    const code = new URL(done.headers.get("location") ?? "").searchParams.get("code") ?? "";
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => t.redeem(code, started.verifier, { ip: freshIp() })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(9).fill(400)]);
  });

  it("stops a session at once on sign-out, and its token never works again", async () => {
    const { sessionToken } = await t.signIn();
    expect((await t.request("/api/me", { session: sessionToken })).status).toBe(200);
    expect(
      (await t.request("/auth/logout", { method: "POST", session: sessionToken })).status,
    ).toBe(204);
    for (const path of ["/api/me", "/api/tasks", "/api/sessions"])
      expect((await t.request(path, { session: sessionToken })).status).toBe(401);
    expect(
      (await t.request("/auth/logout", { method: "POST", session: sessionToken })).status,
    ).toBe(401);
  });
});
