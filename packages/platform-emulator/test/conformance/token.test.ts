import { tokenResponseSchema } from "@overture/core/schemas";
import { describe, expect, it } from "vitest";
import type { RefreshRotation } from "../../src/index.ts";
import { bearer, CLIENT, json, manualEmulator } from "../helpers/emulator.ts";
import { authorizationCode, signIn, tokenRequest } from "../helpers/oauth.ts";

/** Spec 4.2: `Basic base64(client_id:client_secret)`. */
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

const codeForm = (code: string) => ({
  grant_type: "authorization_code",
  code,
  redirect_uri: CLIENT.redirectUri,
  client_id: CLIENT.id,
  client_secret: CLIENT.secret,
});

describe("token endpoint (spec 4.2, 2.2, 3.2, 5 rule 1)", () => {
  it("4.2, 2.2: exchanges a code sent with form credentials for the token response", async () => {
    const emu = manualEmulator();
    const res = await tokenRequest(emu, codeForm(await authorizationCode(emu)));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(tokenResponseSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      token_type: "Bearer",
      expires_in: 7200,
      scope: "user_info api_key",
    });
    expect(typeof body.access_token).toBe("string");
    expect(typeof body.refresh_token).toBe("string");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("5 rule 1: a wrong client_secret is invalid_client (401)", async () => {
    const emu = manualEmulator();
    const form = { ...codeForm(await authorizationCode(emu)), client_secret: "wrong" };
    const res = await tokenRequest(emu, form);
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject({ error: "invalid_client" });
  });

  it("3.2 rule 1, 7: an authorization code is rejected after its first use", async () => {
    const emu = manualEmulator();
    const code = await authorizationCode(emu);
    expect((await tokenRequest(emu, codeForm(code))).status).toBe(200);
    const again = await tokenRequest(emu, codeForm(code));
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ error: "invalid_grant" });
  });

  it("RFC 6749 4.1.2: a second use of a code revokes the tokens issued from it", async () => {
    const emu = manualEmulator();
    const code = await authorizationCode(emu);
    const first = await json<{ access_token: string }>(await tokenRequest(emu, codeForm(code)));
    const userinfo = () =>
      emu.app.request("/api/open/v1/userinfo", { headers: bearer(first.access_token) });
    expect((await userinfo()).status).toBe(200);
    await tokenRequest(emu, codeForm(code));
    expect((await userinfo()).status).toBe(401);
  });

  it("3.2 rule 1: a code expires after codeTtlSeconds (default 60 s)", async () => {
    const emu = manualEmulator();
    const code = await authorizationCode(emu);
    await emu.control.clock.advance(60_000);
    const res = await tokenRequest(emu, codeForm(code));
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: "invalid_grant" });
  });

  it("a code one millisecond before expiry still works", async () => {
    const emu = manualEmulator();
    const code = await authorizationCode(emu);
    await emu.control.clock.advance(59_999);
    expect((await tokenRequest(emu, codeForm(code))).status).toBe(200);
  });

  it("a code is bound to the redirect_uri of the authorization request", async () => {
    const emu = manualEmulator();
    const form = {
      ...codeForm(await authorizationCode(emu)),
      redirect_uri: "http://127.0.0.1:8787/x",
    };
    const res = await tokenRequest(emu, form);
    expect(await json(res)).toMatchObject({ error: "invalid_grant" });
  });

  it("a code is bound to the client it was issued to", async () => {
    const other = {
      name: "Other",
      client_id: "other",
      client_secret: "other-secret",
      redirect_uri: CLIENT.redirectUri,
    };
    const emu = manualEmulator({
      seed: {
        users: [{ id: 1, login: "u", name: "U" }],
        applications: [
          {
            name: "Overture",
            client_id: CLIENT.id,
            client_secret: CLIENT.secret,
            redirect_uri: CLIENT.redirectUri,
          },
          other,
        ],
      },
    });
    const code = await authorizationCode(emu);
    const form = { ...codeForm(code), client_id: "other", client_secret: "other-secret" };
    expect(await json(await tokenRequest(emu, form))).toMatchObject({ error: "invalid_grant" });
  });

  it("4.2: the refresh_token grant returns the shape of 2.2", async () => {
    const emu = manualEmulator();
    const tokens = await signIn(emu);
    const res = await tokenRequest(
      emu,
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      { Authorization: basic(CLIENT.id, CLIENT.secret) },
    );
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(tokenResponseSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      token_type: "Bearer",
      expires_in: 7200,
      scope: "user_info api_key",
    });
    expect(body.access_token).not.toBe(tokens.access_token);
  });

  it("3.2 rule 4: an access token stops working after expires_in; a refresh gives a working one", async () => {
    const emu = manualEmulator();
    const tokens = await signIn(emu);
    await emu.control.clock.advance(7_200_000);
    const userinfo = (t: string) =>
      emu.app.request("/api/open/v1/userinfo", { headers: bearer(t) });
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    const refreshed = await json<{ access_token: string }>(
      await tokenRequest(emu, refreshForm(tokens.refresh_token)),
    );
    expect((await userinfo(refreshed.access_token)).status).toBe(200);
  });

  const rotation = async (mode: RefreshRotation) => {
    const emu = manualEmulator({ refreshTokenRotation: mode });
    const tokens = await signIn(emu);
    const first = await json<{ refresh_token: string; access_token: string }>(
      await tokenRequest(emu, refreshForm(tokens.refresh_token)),
    );
    const reuse = await tokenRequest(emu, refreshForm(tokens.refresh_token));
    const next = await tokenRequest(emu, refreshForm(first.refresh_token));
    const info = await emu.app.request("/api/open/v1/userinfo", {
      headers: bearer(first.access_token),
    });
    return { tokens, first, reuse, next, infoStatus: info.status };
  };

  it("refresh rotation off: the same refresh token is returned and keeps working", async () => {
    const r = await rotation("off");
    expect(r.first.refresh_token).toBe(r.tokens.refresh_token);
    expect(r.reuse.status).toBe(200);
  });

  it("refresh rotation rotate (default): a new refresh token; the old one is invalid_grant; the grant lives", async () => {
    const r = await rotation("rotate");
    expect(r.first.refresh_token).not.toBe(r.tokens.refresh_token);
    expect(r.reuse.status).toBe(400);
    expect(await json(r.reuse)).toMatchObject({ error: "invalid_grant" });
    expect(r.next.status).toBe(200);
    expect(r.infoStatus).toBe(200);
  });

  it("refresh rotation rotate-detect-reuse: reusing an old refresh token revokes the whole grant", async () => {
    const r = await rotation("rotate-detect-reuse");
    expect(r.reuse.status).toBe(400);
    expect(r.next.status).toBe(400);
    expect(r.infoStatus).toBe(401);
  });

  it("a refresh token only works for the client it was issued to", async () => {
    const emu = manualEmulator();
    const tokens = await signIn(emu);
    const res = await tokenRequest(emu, {
      ...refreshForm(tokens.refresh_token),
      client_secret: "wrong",
    });
    expect(res.status).toBe(401);
  });

  it("RFC 6749 errors: an unknown grant_type is unsupported_grant_type", async () => {
    const emu = manualEmulator();
    const res = await tokenRequest(emu, {
      grant_type: "password",
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: "unsupported_grant_type",
      error_description: expect.any(String) as string,
    });
  });

  it("4.2: a body that is not form-urlencoded is invalid_request", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request("/api/open/oauth/token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(codeForm("x")),
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: "invalid_request" });
  });
});

function refreshForm(refreshToken: string) {
  return {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: CLIENT.id,
    client_secret: CLIENT.secret,
  };
}
