/**
 * The backend's OAuth client against an OAuth server nobody here wrote (issue 11 item 8):
 * panva's `oidc-provider` on 127.0.0.1 with rotating refresh tokens and a client secret holding
 * `+`, `/` and `=`. Everything goes through the backend's own routes, as the extension drives
 * them; only the backend's clock is manual (the provider keeps real time), so "the access token
 * is about to expire" is reached without waiting.
 */

import { createPkcePair } from "@overture/core/oauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackend, type Backend } from "../../src/backend.ts";
import { parseEnv } from "../../src/env/env.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { REFRESH_AHEAD_MS } from "../../src/services/credentials/grants.ts";
import { CHROME_REDIRECT, PUBLIC_URL } from "../support/constants.ts";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { testEnv } from "../support/harness.ts";
import { freshIp } from "../support/instance.ts";
import { startOidcPlatform, type OidcPlatform } from "../support/oidc-platform.ts";

const CLIENT_ID = "overture-interop";
/** Characters that base64 alphabets and form encoding both give meaning to. */
const CLIENT_SECRET = "s3cr+t/with=padding+and/slashes==";
const ACCESS_TOKEN_TTL = 599;

/** RFC 6749 §2.3.1: id and secret form-urlencoded, then `id:secret` base64-encoded. */
const rfcBasic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

interface Running {
  backend: Backend;
  logs: string[];
  /** The backend's clock; the test moves it. */
  clock: { now(): number; advance(ms: number): void };
  request(path: string, init?: RequestInit & { session?: string; ip?: string }): Promise<Response>;
  /** The sign-in as the extension runs it; returns the redirect back to the extension. */
  signInRedirect(login?: string): Promise<URL & { verifier?: string }>;
  /** A full sign-in; returns the session token and the user id. */
  signIn(login?: string): Promise<{ session: string; userId: number }>;
}

async function startBackendFor(
  platform: OidcPlatform,
  database: TestDatabase,
  env: Record<string, string>,
): Promise<Running> {
  const config = parseEnv(
    testEnv({
      PLATFORM_BASE_URL: platform.url,
      PLATFORM_CLIENT_ID: CLIENT_ID,
      PLATFORM_CLIENT_SECRET: CLIENT_SECRET,
      ...env,
    }),
  );
  const logs: string[] = [];
  const logger = createLogger(config.logLevel, { write: (line: string) => void logs.push(line) });
  let now = Date.now();
  const clock = {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
  const backend = await createBackend(config, {
    database: database.database,
    clock,
    logger,
    workers: false,
  });

  async function request(
    path: string,
    init: RequestInit & { session?: string; ip?: string } = {},
  ): Promise<Response> {
    const { session, ip, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (session) headers.set("Authorization", `Bearer ${session}`);
    if (typeof rest.body === "string") headers.set("Content-Type", "application/json");
    const socket = { remoteAddress: ip ?? freshIp(), remotePort: 50_000, remoteFamily: "IPv4" };
    return backend.app.request(path, { ...rest, headers }, { incoming: { socket } });
  }

  async function signInRedirect(login = "demo") {
    const ip = freshIp();
    const { verifier, challenge } = await createPkcePair();
    const query = new URLSearchParams({
      redirect_uri: CHROME_REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const started = await request(`/auth/start?${query.toString()}`, { ip });
    const authorizeUrl = started.headers.get("location") ?? "";
    expect(authorizeUrl.startsWith(`${platform.url}/oauth/authorize?`)).toBe(true);
    const back = new URL(await platform.authorize(authorizeUrl, login));
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/oauth/callback`);
    const done = await request(`${back.pathname}${back.search}`, { ip });
    expect(done.status).toBe(302);
    return Object.assign(new URL(done.headers.get("location") ?? "about:blank"), { verifier });
  }

  async function signIn(login = "demo") {
    const back = await signInRedirect(login);
    const code = back.searchParams.get("code");
    if (!code) throw new Error(`sign-in came back without a code: ${back.toString()}`);
    const redeemed = await request("/auth/token", {
      method: "POST",
      body: JSON.stringify({ code, code_verifier: back.verifier }),
    });
    expect(redeemed.status).toBe(200);
    const body = (await redeemed.json()) as { session_token: string; user: { id: number } };
    return { session: body.session_token, userId: body.user.id };
  }

  return { backend, logs, clock, request, signIn, signInRedirect };
}

const tokenCallsOf = (platform: OidcPlatform, grantType: string) =>
  platform.tokenCalls.filter((call) => call.grantType === grantType);

describeEachDriver(
  "the backend against panva's oidc-provider (rotating refresh tokens)",
  (driver) => {
    let platform: OidcPlatform;
    let database: TestDatabase;
    let t: Running;

    beforeAll(async () => {
      platform = await startOidcPlatform({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUri: `${PUBLIC_URL}/oauth/callback`,
        accessTokenTtl: ACCESS_TOKEN_TTL,
      });
      database = await createTestDatabase(driver);
      t = await startBackendFor(platform, database, { PLATFORM_CLIENT_AUTH: "basic-rfc6749" });
    });
    afterAll(async () => {
      await t.backend.stop();
      await database.drop();
      await platform.close();
      expect(platform.serverErrors).toEqual([]);
    });

    /** `GET /api/namespaces/demo/tokens`: a call that needs a valid platform access token. */
    const listTokens = (session: string) => t.request("/api/namespaces/demo/tokens", { session });

    it("exchanges the code with client_secret_basic as RFC 6749 encodes it and opens an active grant", async () => {
      const before = tokenCallsOf(platform, "authorization_code").length;
      const { session } = await t.signIn();
      const exchanges = tokenCallsOf(platform, "authorization_code").slice(before);
      expect(exchanges.map((call) => call.status)).toEqual([200]);
      expect(exchanges[0]?.authorization).toBe(rfcBasic(CLIENT_ID, CLIENT_SECRET));
      const me = await t.request("/api/me", { session });
      expect(await me.json()).toMatchObject({
        user: { id: 1001, login: "demo" },
        grant: { status: "active", scope: "user_info api_key" },
      });
      const tokens = await listTokens(session);
      expect(tokens.status).toBe(200);
      expect(await tokens.json()).toMatchObject({ tokens: [{ id: 101, usage_scenario: "paid" }] });
    });

    it("keeps the access token for the expires_in the server sent, then refreshes ahead of it", async () => {
      const signedInAt = t.clock.now();
      const { session, userId } = await t.signIn();
      const [exchange] = tokenCallsOf(platform, "authorization_code").slice(-1);
      const expiresIn = Number(exchange?.body.expires_in);
      expect(expiresIn).toBeGreaterThan(ACCESS_TOKEN_TTL - 5);
      expect(expiresIn).toBeLessThanOrEqual(ACCESS_TOKEN_TTL);
      const status = await t.backend.deps.services.grants.status(userId);
      expect(status?.accessExpiresAt.getTime()).toBe(signedInAt + expiresIn * 1000);

      // Just outside the refresh-ahead window: the stored token is used as is.
      const refreshes = tokenCallsOf(platform, "refresh_token").length;
      t.clock.advance(expiresIn * 1000 - REFRESH_AHEAD_MS - 1_000);
      expect((await listTokens(session)).status).toBe(200);
      expect(tokenCallsOf(platform, "refresh_token").length).toBe(refreshes);

      // Inside it: one refresh, and the call succeeds with the new token.
      t.clock.advance(2_000);
      expect((await listTokens(session)).status).toBe(200);
      expect(
        tokenCallsOf(platform, "refresh_token")
          .slice(refreshes)
          .map((c) => c.status),
      ).toEqual([200]);
    });

    it("stores each rotated refresh token: refresh after refresh succeeds", async () => {
      const { session, userId } = await t.signIn();
      const issued = [tokenCallsOf(platform, "authorization_code").at(-1)?.body.refresh_token];
      for (let round = 0; round < 3; round++) {
        const expiry = (await t.backend.deps.services.grants.status(userId))?.accessExpiresAt;
        t.clock.advance((expiry?.getTime() ?? 0) - t.clock.now());
        expect((await listTokens(session)).status).toBe(200);
        const refresh = tokenCallsOf(platform, "refresh_token").at(-1);
        expect(refresh?.status).toBe(200);
        issued.push(refresh?.body.refresh_token);
      }
      // Every refresh answered a new refresh token: the server really rotates.
      expect(new Set(issued).size).toBe(4);
      expect(issued.every((token) => typeof token === "string")).toBe(true);
      const me = await t.request("/api/me", { session });
      expect(await me.json()).toMatchObject({ grant: { status: "active" } });
    });

    it("after a rotated refresh token is replayed, the server ends the grant and the backend asks the user to sign in again", async () => {
      const { session, userId } = await t.signIn();
      const original = tokenCallsOf(platform, "authorization_code").at(-1)?.body.refresh_token;
      const expiry = (await t.backend.deps.services.grants.status(userId))?.accessExpiresAt;
      t.clock.advance((expiry?.getTime() ?? 0) - t.clock.now());
      expect((await listTokens(session)).status).toBe(200);
      expect(tokenCallsOf(platform, "refresh_token").at(-1)?.status).toBe(200);

      // Someone replays the refresh token the backend already rotated away (as a thief would).
      const replay = await fetch(`${platform.url}/api/open/oauth/token`, {
        method: "POST",
        headers: {
          Authorization: rfcBasic(CLIENT_ID, CLIENT_SECRET),
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: String(original) }),
      });
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: "invalid_grant" });

      // The server revoked the whole grant: the backend's access token stops working, its refresh
      // token is refused, and the backend turns that into "sign in again", not a retry loop.
      const refused = await listTokens(session);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: "reauthentication_required" });
      expect(tokenCallsOf(platform, "refresh_token").at(-1)).toMatchObject({
        status: 400,
        body: { error: "invalid_grant" },
      });
      const me = await t.request("/api/me", { session });
      expect(await me.json()).toMatchObject({ grant: { status: "revoked" } });
      const refreshes = tokenCallsOf(platform, "refresh_token").length;
      expect((await listTokens(session)).status).toBe(401);
      expect(tokenCallsOf(platform, "refresh_token").length).toBe(refreshes);

      // Signing in again starts a fresh grant that works.
      const again = await t.signIn();
      expect((await listTokens(again.session)).status).toBe(200);
    });

    describe("with client credentials as form fields (PLATFORM_CLIENT_AUTH=form)", () => {
      let postPlatform: OidcPlatform;
      let postDatabase: TestDatabase;
      let post: Running;
      beforeAll(async () => {
        postPlatform = await startOidcPlatform({
          clientId: CLIENT_ID,
          clientSecret: CLIENT_SECRET,
          redirectUri: `${PUBLIC_URL}/oauth/callback`,
          accessTokenTtl: ACCESS_TOKEN_TTL,
          tokenEndpointAuthMethod: "client_secret_post",
        });
        postDatabase = await createTestDatabase(driver);
        post = await startBackendFor(postPlatform, postDatabase, { PLATFORM_CLIENT_AUTH: "form" });
      });
      afterAll(async () => {
        await post.backend.stop();
        await postDatabase.drop();
        await postPlatform.close();
        expect(postPlatform.serverErrors).toEqual([]);
      });

      it("exchanges the code and refreshes with client_secret_post, sending no Authorization header", async () => {
        const { session, userId } = await post.signIn();
        const expiry = (await post.backend.deps.services.grants.status(userId))?.accessExpiresAt;
        post.clock.advance((expiry?.getTime() ?? 0) - post.clock.now());
        const tokens = await post.request("/api/namespaces/demo/tokens", { session });
        expect(tokens.status).toBe(200);
        const calls = postPlatform.tokenCalls.map(({ grantType, authorization, status }) => ({
          grantType,
          authorization,
          status,
        }));
        expect(calls).toEqual([
          { grantType: "authorization_code", authorization: null, status: 200 },
          { grantType: "refresh_token", authorization: null, status: 200 },
        ]);
        const me = await post.request("/api/me", { session });
        expect(await me.json()).toMatchObject({ grant: { status: "active" } });
      });
    });

    describe("with spec-literal Basic (the default), which this server form-decodes", () => {
      let literal: Running;
      let literalDatabase: TestDatabase;
      beforeAll(async () => {
        literalDatabase = await createTestDatabase(driver);
        literal = await startBackendFor(platform, literalDatabase, {});
      });
      afterAll(async () => {
        await literal.backend.stop();
        await literalDatabase.drop();
      });

      it("the server refuses the client, and the sign-in ends as a client-configuration problem", async () => {
        const before = platform.tokenCalls.length;
        const back = await literal.signInRedirect();
        expect(back.searchParams.get("code")).toBeNull();
        // Not "try again": the extension is told the backend's settings are wrong, and which.
        expect(back.searchParams.get("error")).toBe("backend_misconfigured");
        expect(back.searchParams.get("error_description")).toContain("PLATFORM_CLIENT_AUTH");
        const [exchange] = platform.tokenCalls.slice(before);
        expect(exchange).toMatchObject({ status: 401, body: { error: "invalid_client" } });
        expect(exchange?.authorization).toBe(
          `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`,
        );
        expect(literal.logs.join("\n")).toContain("check PLATFORM_CLIENT_ID");
      });
    });
  },
);
