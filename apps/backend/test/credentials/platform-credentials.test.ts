import { randomBytes } from "node:crypto";
import { PlatformError } from "@overture/core/errors";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { Me } from "../../src/api.ts";
import { grants } from "../../src/db/schema/index.ts";
import {
  DEFAULT_ACCESS_TTL_SECONDS,
  REFRESH_AHEAD_MS,
} from "../../src/services/credentials/grants.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { CLIENT_ID, startTestBackend, type TestBackend } from "../support/harness.ts";

const HOUR = 3_600_000;

describeEachDriver("token list and selection", (driver) => {
  let t: TestBackend;
  let session: string;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    session = (await t.signIn()).sessionToken;
  });
  afterAll(() => t.close());

  it("lists the access tokens of the user's namespace (meta only)", async () => {
    const response = await t.request("/api/namespaces/demo/tokens", { session });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      namespace: "demo",
      tokens: [
        { id: 101, name: "Studio (paid)", usage_scenario: "paid" },
        { id: 102, name: "Sketchbook (trial)", usage_scenario: "trial" },
      ],
    });
  });

  it("lists an organization's tokens for a member", async () => {
    const response = await t.request("/api/namespaces/overture-lab/tokens", { session });
    expect(((await response.json()) as { tokens: unknown[] }).tokens).toEqual([
      { id: 201, name: "Lab shared", usage_scenario: "paid" },
    ]);
  });

  it("answers namespace_not_found for a namespace the user is not a member of", async () => {
    const response = await t.request("/api/namespaces/ada/tokens", { session });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "namespace_not_found" });
  });

  it("answers namespace_not_found for a namespace that does not exist", async () => {
    const response = await t.request("/api/namespaces/nobody-here/tokens", { session });
    expect(response.status).toBe(404);
  });

  it("rejects a malformed namespace before calling the platform", async () => {
    const calls = t.platformCalls.length;
    const response = await t.request("/api/namespaces/-bad%20ns/tokens", { session });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
    expect(t.platformCalls.length).toBe(calls);
  });

  it("has no selection before one is made", async () => {
    const ada = await t.signIn({ login: "ada" });
    expect(await (await t.request("/api/selection", { session: ada.sessionToken })).json()).toEqual(
      { selection: null },
    );
  });

  it("stores a selection with the platform's name and usage scenario", async () => {
    const put = await t.request("/api/selection", {
      method: "PUT",
      session,
      body: JSON.stringify({ namespace: "demo", token_id: 102 }),
    });
    expect(put.status).toBe(200);
    const expected = {
      selection: {
        namespace: "demo",
        token_id: 102,
        token_name: "Sketchbook (trial)",
        usage_scenario: "trial",
      },
    };
    expect(await put.json()).toEqual(expected);
    expect(await (await t.request("/api/selection", { session })).json()).toEqual(expected);
  });

  it("refuses to select a token id the namespace does not list", async () => {
    const put = await t.request("/api/selection", {
      method: "PUT",
      session,
      body: JSON.stringify({ namespace: "demo", token_id: 201 }),
    });
    expect(put.status).toBe(404);
    expect(await put.json()).toMatchObject({ error: "access_token_not_found" });
  });
});

describeEachDriver("grant refresh and revocation", (driver) => {
  let t: TestBackend;
  let user: { sessionToken: string; userId: number };
  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  beforeEach(async () => {
    user = await t.signIn();
  });
  afterAll(() => t.close());

  const refreshes = () => t.platformCalls.filter((c) => c.grantType === "refresh_token").length;
  const listTokens = () => t.request("/api/namespaces/demo/tokens", { session: user.sessionToken });

  it("uses the stored access token while it is valid", async () => {
    const before = refreshes();
    expect((await listTokens()).status).toBe(200);
    expect(refreshes()).toBe(before);
  });

  it("refreshes ahead of expiry, once", async () => {
    await t.emu.control.clock.advance(2 * HOUR - 30_000);
    const before = refreshes();
    expect((await listTokens()).status).toBe(200);
    expect((await listTokens()).status).toBe(200);
    expect(refreshes()).toBe(before + 1);
  });

  it("refreshes after the platform answers 401 to a token it still thought valid", async () => {
    // The platform ended the token early (our stored expiry says it has a day left).
    await t.database.db
      .update(grants)
      .set({ accessExpiresAt: new Date(t.clock.now() + 24 * HOUR) })
      .where(eq(grants.userId, user.userId));
    await t.emu.control.clock.advance(2 * HOUR + 1);
    const before = refreshes();
    expect((await listTokens()).status).toBe(200);
    expect(refreshes()).toBe(before + 1);
  });

  it("stores the rotated refresh token a refresh returns", async () => {
    const [row] = await t.database.db.select().from(grants).where(eq(grants.userId, user.userId));
    await t.emu.control.clock.advance(2 * HOUR);
    await t.backend.deps.services.grants.accessToken(user.userId);
    const [after] = await t.database.db.select().from(grants).where(eq(grants.userId, user.userId));
    // The emulator rotates by default: a new refresh token was returned and stored.
    expect(after?.refreshTokenEnc).not.toBe(row?.refreshTokenEnc);
    expect(after?.version).toBe((row?.version ?? 0) + 1);
  });

  it("asks for a new sign-in once the user revokes the app on the platform", async () => {
    t.emu.control.revokeAuthorization({ clientId: CLIENT_ID, userId: user.userId });
    const response = await listTokens();
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "reauthentication_required" });
    const me = (await (await t.request("/api/me", { session: user.sessionToken })).json()) as {
      grant: { status: string };
    };
    expect(me.grant.status).toBe("revoked");
  });

  it("reports on /api/me a grant no listed key opens as revoked (grant_unreadable), and an open one as active", async () => {
    const me = async (instance: { request: TestBackend["request"] }) =>
      ((await (await instance.request("/api/me", { session: user.sessionToken })).json()) as Me)
        .grant;
    expect(await me(t)).toEqual({ status: "active", scope: "user_info api_key" });
    // The same database seen by an instance whose key list lost the key that sealed the grant.
    const other = await t.openSecondInstance((config) => ({
      ...config,
      encryptionKeys: [{ id: "k9", key: randomBytes(32).toString("base64") }],
    }));
    expect(await me(other)).toEqual({
      status: "revoked",
      scope: "user_info api_key",
      reason: "grant_unreadable",
    });
    expect(
      (await other.request("/api/namespaces/demo/tokens", { session: user.sessionToken })).status,
    ).toBe(401);
  });

  it("does not call the platform again for a revoked grant", async () => {
    t.emu.control.revokeAuthorization({ clientId: CLIENT_ID, userId: user.userId });
    await listTokens();
    const calls = t.platformCalls.length;
    expect((await listTokens()).status).toBe(401);
    expect(t.platformCalls.length).toBe(calls);
  });

  it("a new sign-in replaces a revoked grant", async () => {
    t.emu.control.revokeAuthorization({ clientId: CLIENT_ID, userId: user.userId });
    await listTokens();
    user = await t.signIn();
    expect((await listTokens()).status).toBe(200);
    const rows = await t.database.db.select().from(grants).where(eq(grants.userId, user.userId));
    expect(rows).toHaveLength(1);
  });
});

describeEachDriver("grant refresh edge cases", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    // Rotation off: the platform keeps accepting the same refresh token.
    t = await startTestBackend({ driver, emulator: { refreshTokenRotation: "off" } });
  });
  afterAll(() => t.close());

  /** Replaces one platform method for the duration of `fn`. */
  async function withPlatform<K extends "refreshGrant">(
    name: K,
    replacement: (
      original: TestBackend["backend"]["deps"]["platform"][K],
    ) => TestBackend["backend"]["deps"]["platform"][K],
    fn: () => Promise<void>,
  ): Promise<void> {
    const platform = t.backend.deps.platform;
    const original = platform[name];
    platform[name] = replacement(original);
    try {
      await fn();
    } finally {
      platform[name] = original;
    }
  }

  it("keeps the refresh token when a refresh response carries none", async () => {
    const user = await t.signIn();
    const { grants: service } = t.backend.deps.services;
    const [before] = await t.database.db
      .select()
      .from(grants)
      .where(eq(grants.userId, user.userId));
    await t.emu.control.clock.advance(2 * HOUR);
    await withPlatform(
      "refreshGrant",
      (original) => async (input) => {
        const { refresh_token: _dropped, ...rest } = await original(input);
        return rest;
      },
      async () => {
        await service.accessToken(user.userId);
      },
    );
    const [after] = await t.database.db.select().from(grants).where(eq(grants.userId, user.userId));
    expect(after?.refreshTokenEnc).toBe(before?.refreshTokenEnc);
    expect(after?.accessTokenEnc).not.toBe(before?.accessTokenEnc);
    // And the kept refresh token still works for the next refresh.
    await t.emu.control.clock.advance(2 * HOUR);
    await expect(service.accessToken(user.userId)).resolves.toMatch(/.+/);
    expect((await service.status(user.userId))?.status).toBe("active");
  });

  it.each([
    ["fails (503)", new PlatformError("PLATFORM_SERVER_ERROR", "unavailable", { status: 503 })],
    [
      "cannot be reached",
      new PlatformError("PLATFORM_NETWORK_ERROR", "no response", {
        cause: new TypeError("fetch failed", { cause: { code: "ECONNRESET" } }),
      }),
    ],
  ])(
    "answers platform_unavailable and keeps the grant when the token endpoint %s",
    async (_, failure) => {
      const user = await t.signIn();
      const { grants: service } = t.backend.deps.services;
      await t.emu.control.clock.advance(2 * HOUR);
      await withPlatform(
        "refreshGrant",
        () => () => Promise.reject(failure),
        async () => {
          await expect(service.accessToken(user.userId)).rejects.toMatchObject({
            status: 503,
            code: "platform_unavailable",
          });
        },
      );
      expect((await service.status(user.userId))?.status).toBe("active");
      await expect(service.accessToken(user.userId)).resolves.toMatch(/.+/);
    },
  );
});

describeEachDriver("token answers with fields left out or added", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    // The token endpoint answers without expires_in and scope (RFC 6749 5.1 lets it), with
    // fields the spec does not list, and with token_type in lower case.
    t = await startTestBackend({
      driver,
      rewritePlatformResponse: async (path, response) => {
        if (!path.endsWith("/oauth/token") || !response.ok) return response;
        const {
          expires_in: _e,
          scope: _s,
          ...rest
        } = (await response.json()) as Record<string, unknown>;
        return Response.json({ ...rest, token_type: "bearer", created_at: 1_787_474_128 });
      },
    });
  });
  afterAll(() => t.close());

  const refreshes = () => t.platformCalls.filter((c) => c.grantType === "refresh_token").length;

  it("signs in, keeps the scope it asked for and assumes an hour's lifetime", async () => {
    const signedInAt = t.clock.now();
    const user = await t.signIn();
    const status = await t.backend.deps.services.grants.status(user.userId);
    expect(status).toMatchObject({ status: "active", scope: "user_info api_key" });
    expect(status?.accessExpiresAt.getTime()).toBe(signedInAt + DEFAULT_ACCESS_TTL_SECONDS * 1000);
  });

  it("refreshes ahead of the assumed lifetime, and the refreshed grant stays active", async () => {
    const user = await t.signIn();
    const list = () => t.request("/api/namespaces/demo/tokens", { session: user.sessionToken });
    const before = refreshes();
    await t.emu.control.clock.advance(DEFAULT_ACCESS_TTL_SECONDS * 1000 - REFRESH_AHEAD_MS - 1);
    expect((await list()).status).toBe(200);
    expect(refreshes()).toBe(before);
    await t.emu.control.clock.advance(2);
    expect((await list()).status).toBe(200);
    expect(refreshes()).toBe(before + 1);
    const status = await t.backend.deps.services.grants.status(user.userId);
    expect(status).toMatchObject({ status: "active", scope: "user_info api_key" });
  });
});
