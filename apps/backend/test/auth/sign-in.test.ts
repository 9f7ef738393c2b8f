import { createPkcePair } from "@overture/core/oauth";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import {
  CHROME_REDIRECT,
  FIREFOX_REDIRECT,
  PLATFORM_BASE_URL,
  startTestBackend,
  type TestBackend,
} from "../support/harness.ts";

/** The hand-off `code` (or `error`) on the extension redirect a callback answered with. */
function extensionRedirect(response: Response) {
  const location = response.headers.get("location") ?? "";
  const url = new URL(location);
  return { url, code: url.searchParams.get("code"), error: url.searchParams.get("error") };
}

describeEachDriver("sign-in", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  afterAll(() => t.close());

  async function approvedCallback() {
    const started = await t.startSignIn();
    const callbackUrl = await t.authorize(started.authorizeUrl);
    return { started, callbackUrl };
  }

  it("signs in end to end and the session token opens /api/me", async () => {
    const user = await t.signIn();
    const me = await t.request("/api/me", { session: user.sessionToken });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      user: { id: 1001, login: "demo", name: "Demo Listener" },
      grant: { status: "active", scope: "user_info api_key" },
    });
  });

  it("redirects to the platform with its own callback, the scopes and a state", async () => {
    const started = await t.startSignIn();
    const url = new URL(started.authorizeUrl);
    expect(url.origin + url.pathname).toBe(`${PLATFORM_BASE_URL}/oauth/authorize`);
    expect(url.searchParams.get("redirect_uri")).toBe(`${t.config.publicUrl}/oauth/callback`);
    expect(url.searchParams.get("scope")).toBe("user_info api_key");
    expect(url.searchParams.get("client_id")).toBe("overture-local");
    expect(url.searchParams.get("state")?.length).toBeGreaterThan(40);
  });

  it("signs in through the Firefox redirect URL too and returns to it", async () => {
    const started = await t.startSignIn({ redirectUri: FIREFOX_REDIRECT });
    const done = await t.callback(await t.authorize(started.authorizeUrl));
    expect(extensionRedirect(done).url.origin + extensionRedirect(done).url.pathname).toBe(
      FIREFOX_REDIRECT,
    );
  });

  it("signs in as the user who approved", async () => {
    const user = await t.signIn({ login: "ada" });
    expect(user).toMatchObject({ userId: 1002, login: "ada" });
  });

  it("refuses a redirect_uri that is not on the allow-list with a page, never a redirect", async () => {
    const { challenge } = await createPkcePair();
    const query = new URLSearchParams({
      redirect_uri: "https://evil.test/",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const response = await t.request(`/auth/start?${query.toString()}`, {
      headers: { Accept: "text/html" },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("answers JSON to a non-browser caller with a refused redirect_uri", async () => {
    const { challenge } = await createPkcePair();
    const query = new URLSearchParams({
      redirect_uri: `${CHROME_REDIRECT}?x=1`,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const response = await t.request(`/auth/start?${query.toString()}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "redirect_uri_not_allowed" });
  });

  it("tells before any window opens whether a redirect URL is allowed, and its own callback", async () => {
    const check = async (redirectUri: string) => {
      const query = new URLSearchParams({ redirect_uri: redirectUri });
      const response = await t.request(`/auth/check?${query.toString()}`);
      expect(response.status).toBe(200);
      return (await response.json()) as unknown;
    };
    const callbackUrl = `${t.config.publicUrl}/oauth/callback`;
    expect(await check(CHROME_REDIRECT)).toEqual({
      redirect_allowed: true,
      callback_url: callbackUrl,
    });
    expect(await check(`${CHROME_REDIRECT}?x=1`)).toEqual({
      redirect_allowed: false,
      callback_url: callbackUrl,
    });
  });

  it("answers 400 to a check without a redirect URL", async () => {
    const response = await t.request("/auth/check");
    expect(response.status).toBe(400);
  });

  it("refuses a sign-in without a PKCE challenge", async () => {
    const query = new URLSearchParams({ redirect_uri: CHROME_REDIRECT });
    const response = await t.request(`/auth/start?${query.toString()}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
  });

  it("refuses the plain PKCE method", async () => {
    const { verifier } = await createPkcePair();
    const query = new URLSearchParams({
      redirect_uri: CHROME_REDIRECT,
      code_challenge: verifier.slice(0, 43),
      code_challenge_method: "plain",
    });
    expect((await t.request(`/auth/start?${query.toString()}`)).status).toBe(400);
  });

  it("sends a denial back to the extension as error=access_denied", async () => {
    const started = await t.startSignIn();
    // The emulator auto-approves in this suite; this is the redirect a refusal produces (spec 4.1).
    const state = new URL(started.authorizeUrl).searchParams.get("state") ?? "";
    const done = await t.callback(
      `${t.config.publicUrl}/oauth/callback?error=access_denied&state=${state}`,
    );
    expect(done.status).toBe(302);
    const { url, error, code } = extensionRedirect(done);
    expect(url.origin + url.pathname).toBe(CHROME_REDIRECT);
    expect(error).toBe("access_denied");
    expect(code).toBeNull();
  });

  it("passes another OAuth error code from the platform on to the extension", async () => {
    const started = await t.startSignIn();
    const state = new URL(started.authorizeUrl).searchParams.get("state") ?? "";
    const done = await t.callback(
      `${t.config.publicUrl}/oauth/callback?error=invalid_scope&state=${state}`,
    );
    expect(extensionRedirect(done).error).toBe("invalid_scope");
  });

  it("reports an error value that is not an OAuth code as server_error", async () => {
    const started = await t.startSignIn();
    const state = new URL(started.authorizeUrl).searchParams.get("state") ?? "";
    const done = await t.callback(
      `${t.config.publicUrl}/oauth/callback?error=%3Cscript%3E&state=${state}`,
    );
    expect(extensionRedirect(done).error).toBe("server_error");
  });

  it("reports a callback with neither code nor error as server_error", async () => {
    const started = await t.startSignIn();
    const state = new URL(started.authorizeUrl).searchParams.get("state") ?? "";
    const done = await t.callback(`${t.config.publicUrl}/oauth/callback?state=${state}`);
    expect(done.status).toBe(302);
    expect(extensionRedirect(done).error).toBe("server_error");
  });

  it("never honours a callback whose state is unknown", async () => {
    const done = await t.callback(
      `${t.config.publicUrl}/oauth/callback?code=whatever&state=forged`,
      {
        headers: { Accept: "text/html" },
      },
    );
    expect(done.status).toBe(400);
    expect(done.headers.get("location")).toBeNull();
  });

  it("refuses a replayed state", async () => {
    const { callbackUrl } = await approvedCallback();
    expect((await t.callback(callbackUrl)).status).toBe(302);
    const replay = await t.callback(callbackUrl);
    expect(replay.status).toBe(400);
    expect(replay.headers.get("location")).toBeNull();
  });

  it("refuses a state older than ten minutes", async () => {
    const { callbackUrl } = await approvedCallback();
    await t.emu.control.clock.advance(10 * 60_000 + 1);
    const late = await t.callback(callbackUrl);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: "invalid_state" });
  });

  it("reports a code the platform refuses as error=invalid_grant on the extension redirect", async () => {
    const { callbackUrl } = await approvedCallback();
    const url = new URL(callbackUrl);
    url.searchParams.set("code", "code_not_issued");
    const done = await t.callback(url.toString());
    expect(done.status).toBe(302);
    expect(extensionRedirect(done).error).toBe("invalid_grant");
  });

  it("redeems a hand-off code once", async () => {
    const { started, callbackUrl } = await approvedCallback();
    const { code } = extensionRedirect(await t.callback(callbackUrl));
    expect((await t.redeem(code ?? "", started.verifier)).status).toBe(200);
    const replay = await t.redeem(code ?? "", started.verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a verifier that does not match the challenge and burns the code", async () => {
    const { started, callbackUrl } = await approvedCallback();
    const { code } = extensionRedirect(await t.callback(callbackUrl));
    const other = await createPkcePair();
    const wrong = await t.redeem(code ?? "", other.verifier);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    // The right verifier no longer helps: a wrong guess consumed the code.
    expect((await t.redeem(code ?? "", started.verifier)).status).toBe(400);
  });

  it("refuses a hand-off code older than a minute", async () => {
    const { started, callbackUrl } = await approvedCallback();
    const { code } = extensionRedirect(await t.callback(callbackUrl));
    await t.emu.control.clock.advance(60_001);
    const late = await t.redeem(code ?? "", started.verifier);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("validates the token request body", async () => {
    const response = await t.request("/auth/token", {
      method: "POST",
      body: JSON.stringify({ code: "x", code_verifier: "short" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
  });

  it("returns the session token shape the extension codes against", async () => {
    const { started, callbackUrl } = await approvedCallback();
    const { code } = extensionRedirect(await t.callback(callbackUrl));
    const response = await t.redeem(code ?? "", started.verifier);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["expires_at", "session_token", "token_type", "user"]);
    expect(body).toMatchObject({ token_type: "Bearer", user: { id: 1001, login: "demo" } });
    expect(new Date(body.expires_at as string).getTime()).toBeGreaterThan(t.clock.now());
  });
});

describeEachDriver("sign-in with the consent page", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      emulator: { autoApprove: false },
      config: { PLATFORM_CLIENT_AUTH: "form" },
    });
  });
  afterAll(() => t.close());

  it("sends the user's Deny on the platform back as error=access_denied", async () => {
    const started = await t.startSignIn();
    const back = await t.authorize(started.authorizeUrl, { decision: "deny" });
    const done = await t.callback(back);
    expect(extensionRedirect(done).error).toBe("access_denied");
  });

  it("signs in with Approve on the consent page, with client credentials as form fields", async () => {
    const user = await t.signIn();
    expect(user.login).toBe("demo");
  });
});

describeEachDriver("sign-in granted fewer scopes than asked", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    // The platform answers the code exchange with only `user_info` (RFC 6749 3.3 allows it).
    t = await startTestBackend({
      driver,
      rewritePlatformResponse: async (path, response) => {
        if (!path.endsWith("/oauth/token") || !response.ok) return response;
        const body = (await response.json()) as Record<string, unknown>;
        return Response.json({ ...body, scope: "user_info" });
      },
    });
  });
  afterAll(() => t.close());

  it("stops the sign-in with error=insufficient_scope and issues no hand-off code", async () => {
    const started = await t.startSignIn();
    const done = await t.callback(await t.authorize(started.authorizeUrl));
    const { error, code, url } = extensionRedirect(done);
    expect(error).toBe("insufficient_scope");
    expect(code).toBeNull();
    expect(url.searchParams.get("error_description")).toMatch(/api_key/);
  });
});
