import { MUSIC_FIELDS, type MusicFieldSpec } from "@overture/core/music";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_BODY_LIMIT_BYTES } from "../../src/middleware/body-limit.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { createRandom, fuzzSeed, type Random } from "../support/fuzz.ts";
import {
  CHROME_REDIRECT,
  freshIp,
  startTestBackend,
  type TestBackend,
} from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";
import { setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const TASK_CASES = 1_500;
const AUTH_CASES = 1_500;

/** A value of the wrong kind, or out of range, for a music field (spec 4.6 + core's ranges). */
function badValue(r: Random, name: string, spec: MusicFieldSpec): unknown {
  const wrongType = [{ a: 1 }, [1], true, "abc", "NaN", "Infinity", "1e400", "0x10", "12abc", "١٢"];
  switch (spec.kind) {
    case "number":
    case "integer": {
      const choices: unknown[] = [
        ...wrongType,
        (spec.min ?? 0) - r.int(1, 1_000),
        (spec.max ?? 0) + r.int(1, 1_000),
        Number.MAX_VALUE,
        String((spec.max ?? 0) + 1),
      ];
      if (spec.kind === "integer") choices.push(2.5, "3.25");
      return r.pick(choices);
    }
    case "text":
      return r.pick([
        42,
        { text: "x" },
        ["x"],
        false,
        "x".repeat((spec.maxLength ?? 0) + r.int(1, 50)),
        ...(name === "prompt" ? ["", "   ", "\n\t"] : []),
      ]);
    case "option":
      return r.pick([`${r.string(12)}!`, 3, ["euler"], "EULER", " euler"]);
    case "boolean":
      return r.pick(["yes", 1, 0, "True", "false ", "on", {}, []]);
    case "integer-list":
      return r.pick([[1.5], [-1], "1,x", { a: 1 }, ["1e3"], true, [(spec.max ?? 0) + 1]]);
  }
}

interface TaskCase {
  body: string;
  headers?: Record<string, string>;
  /** Fields the response must name; empty for a body-level problem. */
  fields: string[];
  /** What the message must mention for a body-level problem. */
  mention?: RegExp;
  valid: boolean;
}

function taskCase(r: Random): TaskCase {
  const base: Record<string, unknown> = { prompt: `fuzzed tune ${r.string(10, "abcdefgh")}` };
  const roll = r.next();
  if (roll < 0.08) return { body: JSON.stringify(base), fields: [], valid: true };
  if (roll < 0.14)
    return {
      body: r.pick(["[]", "null", "42", '"text"', "true"]),
      fields: [],
      mention: /object|record|array|null|number|string|boolean/i,
      valid: false,
    };
  if (roll < 0.18)
    return {
      body: `{"prompt":${r.pick(["", "'x'", "x", '"x'])}`,
      fields: [],
      mention: /JSON/,
      valid: false,
    };
  if (roll < 0.21)
    return {
      body: JSON.stringify(base),
      headers: {
        "Content-Type": r.pick([
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/xml",
        ]),
      },
      fields: [],
      mention: /JSON/,
      valid: false,
    };
  if (roll < 0.23)
    return {
      body: JSON.stringify({ ...base, lyrics: "x".repeat(API_BODY_LIMIT_BYTES) }),
      fields: [],
      mention: /exceeds/,
      valid: false,
    };
  const fields = new Set<string>();
  for (let i = r.int(1, 3); i > 0; i -= 1) {
    if (r.chance(0.2)) {
      const unknown = r.pick(["durtion", "constructor", "webhook_url", r.string(8, "abcxyz_")]);
      base[unknown] = r.string(5);
      fields.add(unknown);
    } else {
      const [name, spec] = r.pick(Object.entries(MUSIC_FIELDS));
      base[name] = badValue(r, name, spec);
      fields.add(name);
    }
  }
  // A `__proto__` key never reaches the validator as a field (the JSON schema layer drops it);
  // it must not pollute any prototype either (checked after the run).
  const body = r.chance(0.1)
    ? JSON.stringify(base).replace(/^\{/, '{"__proto__":{"polluted":true,"prompt":"p"},')
    : JSON.stringify(base);
  return { body, fields: [...fields], valid: false };
}

describeEachDriver("API input fuzz", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver, config: { LOG_LEVEL: "warn" } });
    user = await setUpTaskUser(t);
    t.emu.control.setQuota(user.namespace, 10_000);
  });
  afterAll(() => t.close());

  const counts = async () =>
    (
      await selectRows<{
        n: string;
        tasks: number;
        events: number;
        attempts: number;
        codes: number;
        sessions: number;
        users: number;
        grants: number;
      }>(
        t.database.db,
        sql`select (select count(*)::int from tasks) as tasks, (select count(*)::int from task_events) as events,
                   (select count(*)::int from login_attempts) as attempts, (select count(*)::int from handoff_codes) as codes,
                   (select count(*)::int from sessions) as sessions, (select count(*)::int from users) as users,
                   (select count(*)::int from grants) as grants`,
      )
    )[0];

  it(`refuses ${TASK_CASES} fuzzed music parameter sets with a 4xx naming each problem, writing nothing`, async () => {
    const seed = fuzzSeed();
    console.log(`[fuzz] task API [${driver}]: seed ${seed} (replay: OVERTURE_FUZZ_SEED=${seed})`);
    const r = createRandom(seed);
    const before = await counts();
    let created = 0;
    const statuses = new Map<number, number>();
    for (let i = 0; i < TASK_CASES; i += 1) {
      const c = taskCase(r);
      const response = await t.request("/api/tasks", {
        method: "POST",
        session: user.session,
        body: c.body,
        headers: { "Content-Type": "application/json", ...c.headers },
      });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const answer = (await response.json()) as {
        error?: string;
        message?: string;
        fields?: { field: string }[];
      };
      const where = `case ${i} (seed ${seed}): ${c.body.slice(0, 200)} → ${response.status} ${JSON.stringify(answer).slice(0, 300)}`;
      if (c.valid) {
        expect(response.status, where).toBe(201);
        created += 1;
        continue;
      }
      expect([400, 413, 415], where).toContain(response.status);
      expect(answer.error, where).toEqual(expect.any(String));
      expect(answer.message, where).toEqual(expect.any(String));
      for (const field of c.fields) {
        expect(
          answer.fields?.map((f) => f.field),
          where,
        ).toContain(field);
        expect(answer.message, where).toContain(field);
      }
      if (c.mention) expect(answer.message, where).toMatch(c.mention);
    }
    const after = await counts();
    console.log(
      `[fuzz] task API [${driver}]: answers ${JSON.stringify(Object.fromEntries(statuses))}, ${created} valid created`,
    );
    expect(created).toBeGreaterThan(0);
    expect(after?.tasks).toBe((before?.tasks ?? 0) + created);
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);

  it(`refuses ${AUTH_CASES} fuzzed sign-in requests with a 4xx naming each problem, writing nothing`, async () => {
    const seed = fuzzSeed();
    console.log(
      `[fuzz] sign-in endpoints [${driver}]: seed ${seed} (replay: OVERTURE_FUZZ_SEED=${seed})`,
    );
    const r = createRandom(seed);
    const before = await counts();
    const statuses = new Map<string, number>();
    let started = 0;
    const challenge = () =>
      r.pick([
        r.string(43, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
        r.string(42, "abc"),
        r.string(44, "abc"),
        r.string(43, "+/=%"),
        "",
      ]);
    for (let i = 0; i < AUTH_CASES; i += 1) {
      const kind = r.pick(["start", "callback", "token", "logout"] as const);
      let response: Response;
      let expectation: { statuses: number[]; mention?: RegExp; code?: string };
      if (kind === "start") {
        const redirect = r.pick([
          CHROME_REDIRECT,
          `${CHROME_REDIRECT}${r.string(6, "abc/")}`,
          "https://evil.example/",
          r.string(40),
          "",
        ]);
        const pkce = challenge();
        const method = r.pick(["S256", "S256", "plain", "", "s256"]);
        const query = new URLSearchParams({
          redirect_uri: redirect,
          code_challenge: pkce,
          code_challenge_method: method,
        });
        if (r.chance(0.1))
          query.delete(r.pick(["redirect_uri", "code_challenge", "code_challenge_method"]));
        if (r.chance(0.15)) {
          // A valid start now and then: the refusals are measured against real successes.
          query.set("redirect_uri", CHROME_REDIRECT);
          query.set("code_challenge", "A".repeat(43));
          query.set("code_challenge_method", "S256");
        }
        response = await t.request(`/auth/start?${query.toString()}`, { ip: freshIp() });
        const redirectOk = query.get("redirect_uri") === CHROME_REDIRECT;
        const pkceOk =
          query.get("code_challenge_method") === "S256" &&
          /^[A-Za-z0-9_-]{43}$/.test(query.get("code_challenge") ?? "");
        if (redirectOk && pkceOk) {
          expectation = { statuses: [302] };
          started += 1;
        } else if (!redirectOk)
          expectation = { statuses: [400], code: "redirect_uri_not_allowed", mention: /redirect/ };
        else expectation = { statuses: [400], code: "invalid_request", mention: /code_challenge/ };
      } else if (kind === "callback") {
        const query = new URLSearchParams();
        if (r.chance(0.8))
          query.set(
            "state",
            r.pick([r.string(50), `st_${r.string(43, "abcdefABCDEF0123456789-_")}`, ""]),
          );
        if (r.chance(0.6)) query.set("code", r.string(30));
        if (r.chance(0.3)) query.set("error", r.pick(["access_denied", r.string(20)]));
        response = await t.request(`/oauth/callback?${query.toString()}`, { ip: freshIp() });
        expectation = { statuses: [400], code: "invalid_state", mention: /sign-in/i };
      } else if (kind === "token") {
        const body = r.pick([
          JSON.stringify({
            code: r.string(30),
            code_verifier: r.string(r.int(43, 128), "abcdefXYZ0123456789-._~"),
          }),
          JSON.stringify({ code: r.string(30), code_verifier: r.string(20) }),
          JSON.stringify({ code: "x".repeat(300), code_verifier: "v".repeat(43) }),
          JSON.stringify({ code_verifier: "v".repeat(43) }),
          JSON.stringify({ code: 12, code_verifier: ["v"] }),
          "{bad json",
          "[]",
        ]);
        response = await t.request("/auth/token", { method: "POST", body, ip: freshIp() });
        expectation = { statuses: [400], mention: /code|JSON|object|sign-in/i };
      } else {
        response = await t.request(r.pick(["/auth/logout", "/api/me"]), {
          method: r.pick(["POST", "GET"]),
          ip: freshIp(),
          headers: {
            Authorization: r.pick([
              `Bearer ovs_${r.string(43, "abcdef0123456789")}`,
              `Bearer ${r.string(10, "abc")}`,
              "Basic x",
              "Bearer",
            ]),
          },
        });
        expectation = { statuses: [401, 404], mention: /session|sign in|route/i };
      }
      const key = `${kind} ${response.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      const text = await response.text();
      const where = `case ${i} (seed ${seed}) ${kind} → ${response.status} ${text.slice(0, 300)}`;
      expect(expectation.statuses, where).toContain(response.status);
      if (response.status >= 400) {
        const answer = JSON.parse(text) as { error: string; message: string };
        if (expectation.code) expect(answer.error, where).toBe(expectation.code);
        if (expectation.mention) expect(answer.message, where).toMatch(expectation.mention);
      }
    }
    const after = await counts();
    console.log(
      `[fuzz] sign-in endpoints [${driver}]: answers ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(started).toBeGreaterThan(0);
    // Only valid starts wrote anything (one login attempt each); nothing else changed.
    expect(after).toEqual({ ...before, attempts: (before?.attempts ?? 0) + started });
  }, 120_000);
});
