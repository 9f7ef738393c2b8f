import { DEFAULT_SEED } from "@overture/platform-emulator";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import {
  CLIENT_ID,
  CLIENT_SECRET,
  freshIp,
  startTestBackend,
  type TestBackend,
} from "../support/harness.ts";
import { dumpDatabase } from "../support/sql.ts";
import { createTask, storeSecret } from "../support/tasks.ts";

const HOUR = 3_600_000;

/**
 * The whole life of an account — sign-in (and failed ones), token choice, webhook secrets entered
 * and rotated, tasks run by webhooks and by polling, forged callbacks, refresh, re-mint,
 * revocation, sign-out — then every secret value that passed through is looked for in every
 * column of every table, every log line (debug level, errors included) and every response body
 * a client received. Complements secrets-at-rest.test.ts with the task, webhook and error paths.
 */
describeEachDriver("no secret in the database, the logs or the responses", (driver) => {
  let t: TestBackend;
  const secrets = new Map<string, string>(); // value → what it is
  const responses: string[] = [];
  const remember = (what: string, value: string | null | undefined) => {
    if (value) secrets.set(value, what);
  };

  beforeAll(async () => {
    t = await startTestBackend({ driver });
    const call = async (path: string, init: Parameters<TestBackend["request"]>[1] = {}) => {
      const response = await t.request(path, init);
      // What the client receives: status, Location and body (not the request it sent).
      responses.push(
        `${response.status} ${response.headers.get("location") ?? ""} ${await response.clone().text()}`,
      );
      return response;
    };

    // Sign-in, step by step so every one-time value is seen.
    const ip = freshIp();
    const started = await t.startSignIn({ ip });
    remember("state", new URL(started.authorizeUrl).searchParams.get("state"));
    remember("PKCE verifier", started.verifier);
    const back = await t.authorize(started.authorizeUrl);
    remember("platform authorization code", new URL(back).searchParams.get("code"));
    const done = await t.callback(back, { ip });
    const handoff = new URL(done.headers.get("location") ?? "").searchParams.get("code");
    remember("hand-off code", handoff);
    const redeemed = await t.redeem(handoff ?? "", started.verifier, { ip });
    const { session_token: session } = (await redeemed.json()) as { session_token: string };
    remember("session token", session);
    // Failed ones: a replayed state, a wrong verifier (burns the code), a forged code.
    await call(new URL(back).pathname + new URL(back).search);
    const second = await t.startSignIn();
    const secondBack = await t.callback(await t.authorize(second.authorizeUrl));
    remember(
      "hand-off code",
      new URL(secondBack.headers.get("location") ?? "").searchParams.get("code"),
    );
    await t.redeem(
      new URL(secondBack.headers.get("location") ?? "").searchParams.get("code") ?? "",
      "w".repeat(43),
    );
    await call("/oauth/callback?state=st_forged&code=forged");

    // Token choice, a webhook secret entered then rotated.
    await call("/api/namespaces/demo/tokens", { session });
    await call("/api/selection", {
      method: "PUT",
      session,
      body: JSON.stringify({ namespace: "demo", token_id: 101 }),
    });
    const first = t.emu.control.resetWebhookSecret("demo");
    remember("webhook secret", first);
    await storeSecret(t, session, "demo", first);
    const rotated = t.emu.control.resetWebhookSecret("demo");
    remember("webhook secret", rotated);
    await storeSecret(t, session, "demo", rotated);
    await call("/api/namespaces/demo/webhook-secret", { session });
    t.emu.control.setQuota("demo", 100);

    // Tasks: by webhooks, one with its callback forged, one whose submit fails.
    const task = await createTask(t, session);
    const callbackUrl = t.emu.control.getTask(task.platform_task_id ?? "")?.webhook_url ?? "";
    remember("webhook key", new URL(callbackUrl).searchParams.get("k"));
    await t.app.request(callbackUrl, {
      method: "POST",
      headers: { "X-Sign-Timestamp": String(t.clock.now()), "X-Signature": "0".repeat(64) },
      body: JSON.stringify({
        event_id: "evt_forged",
        task_id: task.platform_task_id,
        status: "success",
      }),
    });
    await t.emu.control.clock.advance(10_000);
    // A queued task whose submit the platform answers 503 (ambiguous: marked unknown).
    t.emu.control.setQuota("demo", 0);
    await call("/api/tasks", {
      method: "POST",
      session,
      body: JSON.stringify({ prompt: "fails" }),
    });
    t.emu.control.setQuota("demo", 100);
    t.emu.control.faults.failNextTaskRequests(1, "5xx", 503);
    const me = (await (await t.request("/api/me", { session })).json()) as {
      user: { id: number };
    };
    await t.backend.deps.services.taskQueue.drain({ userId: me.user.id, namespace: "demo" }, 1);
    await call(`/api/tasks/${task.id}`, { session });
    // A live stream replays the task's events (bodies read elsewhere; it never ends).
    await (await t.request("/api/events?last_event_id=0", { session })).body?.cancel();

    // Time passes: refresh and re-mint; then the user revokes the app.
    await t.emu.control.clock.advance(2 * HOUR);
    await call("/api/quota", { session });
    t.emu.control.revokeAuthorization({ clientId: CLIENT_ID, login: "demo" });
    await t.emu.control.clock.advance(2 * HOUR);
    await call("/api/quota", { session });
    await call("/api/me", { session });
    await t.backend.deps.services.webhookIntake.flushRejections();
    await call("/auth/logout", { method: "POST", session });
    await call("/api/me", { session });

    for (const value of t.platformSecrets) remember("platform token", value);
    remember("client secret", CLIENT_SECRET);
    for (const { key } of t.config.encryptionKeys) remember("encryption key", key);
    for (const token of DEFAULT_SEED.accessTokens) remember("console API token", token.token);
  }, 60_000);
  afterAll(() => t.close());

  const leaks = (haystack: string) =>
    [...secrets].filter(([value]) => haystack.includes(value)).map(([, what]) => what);

  it("went through every kind of secret (the scan looks for real values)", () => {
    const kinds = new Set(secrets.values());
    for (const kind of [
      "state",
      "PKCE verifier",
      "platform authorization code",
      "hand-off code",
      "session token",
      "webhook secret",
      "webhook key",
      "platform token",
      "client secret",
      "encryption key",
    ])
      expect(kinds).toContain(kind);
    expect(
      [...secrets.values()].filter((k) => k === "platform token").length,
    ).toBeGreaterThanOrEqual(5);
  });

  it("keeps no secret in any column of any table", async () => {
    const dump = await dumpDatabase(t.database.db);
    expect(dump).toContain("v1.t1."); // sealed values are there, in the clear nothing
    expect(leaks(dump)).toEqual([]);
  });

  it("writes no secret to the logs, errors included", () => {
    const logs = t.logs.join("\n");
    // The error paths were logged too: refused callbacks, a failed submit, a revoked grant.
    for (const message of ["webhook delivery refused", "submit failed", "grant revoked"])
      expect(logs).toContain(message);
    // The access log at `info`, for the routes whose queries carry codes and keys.
    for (const route of ["/oauth/callback", "/webhooks/platform", "/auth/token"])
      expect(logs).toMatch(
        new RegExp(`"level":30,[^\\n]*"route":"${route}",[^\\n]*"msg":"request"`),
      );
    expect(leaks(logs)).toEqual([]);
  });

  it("sends no secret in any response but the session token to the one who redeemed it", () => {
    expect(responses.length).toBeGreaterThan(10);
    expect(leaks(responses.join("\n"))).toEqual([]);
  });
});
