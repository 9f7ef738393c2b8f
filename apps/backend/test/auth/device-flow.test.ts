import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import {
  approveDevice,
  enterCode,
  pollDevice,
  sendDecision,
  signInForDevice,
  startDevice,
} from "../support/device.ts";
import { freshIp, startTestBackend, type TestBackend } from "../support/harness.ts";

const RELAY_ON = { RELAY_ENABLED: "true" };

describeEachDriver("command-line sign-in (RFC 8628 device flow)", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver, config: RELAY_ON });
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers the RFC's device authorization: codes, verification URIs, lifetime and interval", async () => {
    const codes = await startDevice(t);
    expect(codes.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(codes.device_code).toMatch(/^dc_[A-Za-z0-9_-]{43}$/);
    expect(codes.verification_uri).toBe("http://backend.test/device");
    expect(codes.verification_uri_complete).toBe(
      `http://backend.test/device?user_code=${codes.user_code}`,
    );
    expect(codes).toMatchObject({ expires_in: 600, interval: 5 });
  });

  it("answers authorization_pending, slow_down when polled too soon, then a session once approved", async () => {
    const codes = await startDevice(t, "overture-webhooks/9.9 (listen)");
    expect((await pollDevice(t, codes.device_code)).body.error).toBe("authorization_pending");
    const early = await pollDevice(t, codes.device_code);
    expect(early).toMatchObject({ status: 400, body: { error: "slow_down" } });
    // The interval is now 10 s: 6 s later is still too soon (and makes it 15 s); 16 s is not.
    await t.emu.control.clock.advance(6_000);
    expect((await pollDevice(t, codes.device_code)).body.error).toBe("slow_down");
    await t.emu.control.clock.advance(16_000);
    expect((await pollDevice(t, codes.device_code)).body.error).toBe("authorization_pending");

    await approveDevice(t, codes.user_code);
    await t.emu.control.clock.advance(16_000);
    const approved = await pollDevice(t, codes.device_code);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ token_type: "Bearer", user: { login: "demo" } });
    const session = approved.body.session_token as string;
    expect((await t.request("/api/me", { session })).status).toBe(200);
    // One session per approval: the code is spent.
    await t.emu.control.clock.advance(16_000);
    expect((await pollDevice(t, codes.device_code)).body.error).toBe("invalid_grant");
  });

  it("lists the command line's session among the user's devices, and ends it when revoked", async () => {
    const codes = await startDevice(t, "overture-webhooks/9.9 (revocable)");
    await approveDevice(t, codes.user_code);
    const session = (await pollDevice(t, codes.device_code)).body.session_token as string;
    const listed = (await (await t.request("/api/sessions", { session })).json()) as {
      sessions: { id: string; user_agent: string; current: boolean }[];
    };
    const mine = listed.sessions.find((s) => s.current);
    expect(mine?.user_agent).toBe("overture-webhooks/9.9 (revocable)");
    const other = await t.signIn();
    const revoked = await t.request(`/api/sessions/${mine?.id}`, {
      method: "DELETE",
      session: other.sessionToken,
    });
    expect(revoked.status).toBe(204);
    expect((await t.request("/api/me", { session })).status).toBe(401);
  });

  it("answers access_denied when the person denies on the confirmation form", async () => {
    const codes = await startDevice(t);
    await approveDevice(t, codes.user_code, { decision: "deny" });
    expect(await pollDevice(t, codes.device_code)).toMatchObject({
      status: 400,
      body: { error: "access_denied" },
    });
  });

  it("answers access_denied when the person refuses on the platform's page", async () => {
    const codes = await startDevice(t);
    const entered = await enterCode(t, codes.user_code);
    const state = new URL(entered.headers.get("location") ?? "").searchParams.get("state");
    const back = await t.request(`/oauth/callback?error=access_denied&state=${state}`, {
      headers: { Accept: "text/html" },
    });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("declined");
    expect((await pollDevice(t, codes.device_code)).body.error).toBe("access_denied");
  });

  it("answers expired_token once the code outlived expires_in, and takes no approval then", async () => {
    const codes = await startDevice(t);
    await t.emu.control.clock.advance(600_000);
    expect((await pollDevice(t, codes.device_code)).body.error).toBe("expired_token");
    expect((await enterCode(t, codes.user_code)).status).toBe(400);
  });

  it("refuses another grant_type and an unknown device code", async () => {
    const codes = await startDevice(t);
    const wrongGrant = await t.request("/auth/device/token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `grant_type=authorization_code&device_code=${codes.device_code}`,
    });
    expect(wrongGrant.status).toBe(400);
    expect(((await wrongGrant.json()) as { error: string }).error).toBe("unsupported_grant_type");
    expect((await pollDevice(t, "dc_unknown")).body.error).toBe("invalid_grant");
  });

  it("takes the code typed in any case, without its dash", async () => {
    const codes = await startDevice(t);
    const typed = codes.user_code.replace("-", " ").toLowerCase();
    expect((await enterCode(t, typed)).status).toBe(303);
  });

  it("refuses a code that waits for no sign-in, and escapes what was typed", async () => {
    const refused = await enterCode(t, '"><b>BCDF');
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain("not waiting for a sign-in");
    expect(text).not.toContain('"><b>');
    const json = await t.request("/device", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "user_code=BCDF-GHJK",
    });
    expect(await json.json()).toMatchObject({ error: "invalid_user_code" });
  });

  it("takes a confirmation once, and only with its own token", async () => {
    const codes = await startDevice(t);
    const confirm = await signInForDevice(t, codes.user_code);
    expect((await sendDecision(t, `${confirm}x`, "approve")).status).toBe(400);
    expect((await sendDecision(t, confirm, "approve")).status).toBe(200);
    expect((await sendDecision(t, confirm, "deny")).status).toBe(400);
    expect((await pollDevice(t, codes.device_code)).status).toBe(200);
  });

  it("refuses a confirmation another site sends, even with the right token", async () => {
    const codes = await startDevice(t);
    const confirm = await signInForDevice(t, codes.user_code);
    const crossSite = await sendDecision(t, confirm, "approve", { "Sec-Fetch-Site": "cross-site" });
    expect(crossSite.status).toBe(403);
    const otherOrigin = await sendDecision(t, confirm, "approve", {
      Origin: "https://evil.example",
    });
    expect(otherOrigin.status).toBe(403);
    expect((await pollDevice(t, codes.device_code)).body.error).toBe("authorization_pending");
    expect(
      (await sendDecision(t, confirm, "approve", { "Sec-Fetch-Site": "same-origin" })).status,
    ).toBe(200);
  });

  it("shows its pages under a CSP that allows forms only to itself and the platform", async () => {
    const page = await t.request("/device?user_code=BCDF-GHJK");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('value="BCDF-GHJK"');
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("form-action 'self' http://127.0.0.1:4010");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });
});

describeEachDriver("command-line sign-in limits", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver, config: RELAY_ON });
  });
  afterAll(async () => {
    await t.close();
  });

  it("limits code entries per address: a burst of 10, then 429 with Retry-After", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i += 1) expect((await enterCode(t, "BCDF-GHJK", ip)).status).toBe(400);
    const limited = await enterCode(t, "BCDF-GHJK", ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });

  it("limits code entries from every address together, so many addresses guess no faster", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 101; i += 1) answers.push((await enterCode(t, "BCDF-GHJK")).status);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(0);
    // Even a right code waits while the limit holds: a flood never lets a guess through.
    const codes = await startDevice(t);
    expect((await enterCode(t, codes.user_code)).status).toBe(429);
  });
});

describeEachDriver("command-line sign-in while the relay is off", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers 404 on every route of it", async () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const answers = await Promise.all([
      t.request("/auth/device", { method: "POST", headers: form, body: "" }),
      t.request("/auth/device/token", { method: "POST", headers: form, body: "device_code=x" }),
      t.request("/device"),
      t.request("/device", { method: "POST", headers: form, body: "user_code=BCDF-GHJK" }),
      t.request("/device/confirm", { method: "POST", headers: form, body: "confirm=x" }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
  });
});
