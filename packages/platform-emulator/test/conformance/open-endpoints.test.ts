import {
  accessTokenDetailSchema,
  accessTokenListSchema,
  userInfoSchema,
} from "@overture/core/schemas";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { createClock } from "../../src/clock/clock.ts";
import { bearer, CLIENT, json, manualEmulator } from "../helpers/emulator.ts";
import { refreshRequest, signIn } from "../helpers/oauth.ts";

const get = (emu: ReturnType<typeof manualEmulator>, path: string, token: string) =>
  emu.app.request(path, { headers: bearer(token) });

describe("open endpoints (spec 4.3–4.5, 5 rule 3, 3.2 rule 2)", () => {
  it("4.3, 2.3: userinfo returns id, login, name and avatar_url of the signed-in user", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu, { login: "ada" });
    const res = await get(emu, "/api/open/v1/userinfo", access_token);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(userInfoSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ id: 1002, login: "ada", name: "Ada Lovelace" });
    expect(body.avatar_url).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it("5 rule 3: open endpoints refuse a missing or unknown bearer token with 401", async () => {
    const emu = manualEmulator();
    expect((await emu.app.request("/api/open/v1/userinfo")).status).toBe(401);
    const res = await get(emu, "/api/open/v1/userinfo", "not-a-token");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("5 rule 4: a console API token is not an OAuth access token for open endpoints", async () => {
    const emu = manualEmulator();
    expect((await get(emu, "/api/open/v1/userinfo", "emu-demo-studio-paid-0001")).status).toBe(401);
  });

  it("5 rule 2: userinfo needs the user_info scope (403 insufficient_scope)", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu, { scope: "api_key" });
    const res = await get(emu, "/api/open/v1/userinfo", access_token);
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ error: "insufficient_scope" });
  });

  it("4.4, 2.4: lists id, name and usage_scenario of the personal namespace's tokens, nothing more", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu);
    const res = await get(emu, "/api/open/v1/demo/tokens", access_token);
    const body = await json<unknown[]>(res);
    expect(accessTokenListSchema.safeParse(body).success).toBe(true);
    expect(body).toEqual([
      { id: 101, name: "Studio (paid)", usage_scenario: "paid" },
      { id: 102, name: "Sketchbook (trial)", usage_scenario: "trial" },
    ]);
  });

  it("4.4: lists an organization namespace the user belongs to", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu, { login: "ada" });
    const body = await json<unknown[]>(
      await get(emu, "/api/open/v1/overture-lab/tokens", access_token),
    );
    expect(body).toEqual([{ id: 201, name: "Lab shared", usage_scenario: "paid" }]);
  });

  it("4.4: refuses a namespace the user does not belong to (403) and an unknown one (404)", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu, { login: "ada" });
    expect((await get(emu, "/api/open/v1/demo/tokens", access_token)).status).toBe(403);
    expect((await get(emu, "/api/open/v1/nobody/tokens", access_token)).status).toBe(404);
  });

  it("4.4: the token list needs the api_key scope (403)", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu, { scope: "user_info" });
    expect((await get(emu, "/api/open/v1/demo/tokens", access_token)).status).toBe(403);
  });

  it("4.5, 2.5: detail returns the meta plus an HS256 JWT proxy token and expires_in 1800", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu);
    const res = await get(emu, "/api/open/v1/demo/tokens/101", access_token);
    const body = await json(res);
    expect(accessTokenDetailSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      id: 101,
      name: "Studio (paid)",
      usage_scenario: "paid",
      expires_in: 1800,
    });
    const jwt = String(body.proxy_access_token);
    expect(decodeProtectedHeader(jwt).alg).toBe("HS256");
    const claims = decodeJwt(jwt);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(1800);
    expect(jwt).not.toContain("emu-demo-studio-paid-0001");
  });

  it("4.5: an id that is not in the namespace is 404", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu);
    expect((await get(emu, "/api/open/v1/demo/tokens/201", access_token)).status).toBe(404);
  });

  it.each(["0x65", "101.0", "%20101", "0101"])(
    "4.5: {id} is the decimal id of 4.4: %s is 404, not another spelling of a token's id",
    async (id) => {
      const emu = manualEmulator();
      const { access_token } = await signIn(emu);
      expect((await get(emu, "/api/open/v1/demo/tokens/101", access_token)).status).toBe(200);
      const res = await get(emu, `/api/open/v1/demo/tokens/${id}`, access_token);
      expect(res.status).toBe(404);
      expect(await json(res)).toMatchObject({ error: "token_not_found" });
    },
  );

  it("5 rule 4: the proxy token authorizes task endpoints for the token's account", async () => {
    const emu = manualEmulator();
    const proxy = await proxyToken(emu);
    expect((await get(emu, "/v1/tasks/available-quota", proxy)).status).toBe(200);
  });

  it("5 rule 4-5: the OAuth access_token itself is refused by task endpoints (401); its proxy token works", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu);
    expect((await get(emu, "/v1/tasks/available-quota", access_token)).status).toBe(401);
    const proxy = await proxyToken(emu, access_token);
    expect((await get(emu, "/v1/tasks/available-quota", proxy)).status).toBe(200);
  });

  it("2.5, 3.2 rule 2-3: a proxy token stops working after expires_in; a new detail call gives a fresh one", async () => {
    const emu = manualEmulator();
    const { access_token } = await signIn(emu);
    const proxy = await proxyToken(emu, access_token);
    await emu.control.clock.advance(1_800_000);
    expect((await get(emu, "/v1/tasks/available-quota", proxy)).status).toBe(401);
    const fresh = await proxyToken(emu, access_token);
    expect((await get(emu, "/v1/tasks/available-quota", fresh)).status).toBe(200);
  });

  it("2.5, 3.2 rule 2: a proxy token minted mid-second works for its full expires_in, to the millisecond", async () => {
    const emu = manualEmulator({
      clock: createClock({ mode: "manual", start: 1_767_225_600_500 }),
    });
    const { access_token } = await signIn(emu);
    const proxy = await proxyToken(emu, access_token);
    await emu.control.clock.advance(1_799_999);
    expect((await get(emu, "/v1/tasks/available-quota", proxy)).status).toBe(200);
    await emu.control.clock.advance(1);
    expect((await get(emu, "/v1/tasks/available-quota", proxy)).status).toBe(401);
  });

  it("3.2 rule 2: revoking the authorization invalidates proxy, access and refresh tokens at once", async () => {
    const emu = manualEmulator();
    const tokens = await signIn(emu);
    const proxy = await proxyToken(emu, tokens.access_token);
    expect(emu.control.revokeAuthorization({ login: "demo", clientId: CLIENT.id })).toBe(1);
    expect((await get(emu, "/v1/tasks/available-quota", proxy)).status).toBe(401);
    expect((await get(emu, "/api/open/v1/userinfo", tokens.access_token)).status).toBe(401);
    const refresh = await refreshRequest(emu, tokens.refresh_token);
    expect(await json(refresh)).toMatchObject({ error: "invalid_grant" });
  });

  it("revoking one user's authorization leaves another user's grant working", async () => {
    const emu = manualEmulator();
    const demo = await signIn(emu);
    const ada = await signIn(emu, { login: "ada" });
    emu.control.revokeAuthorization({ login: "ada", clientId: CLIENT.id });
    expect((await get(emu, "/api/open/v1/userinfo", demo.access_token)).status).toBe(200);
    expect((await get(emu, "/api/open/v1/userinfo", ada.access_token)).status).toBe(401);
  });

  it("a forged proxy token (signed with another key) is 401", async () => {
    const emu = manualEmulator({ proxyTokenKey: "key-one-key-one-key-one-key-one!" });
    const other = manualEmulator({ proxyTokenKey: "key-two-key-two-key-two-key-two!" });
    const foreign = await proxyToken(other);
    expect((await get(emu, "/v1/tasks/available-quota", foreign)).status).toBe(401);
  });
});

async function proxyToken(emu: ReturnType<typeof manualEmulator>, accessToken?: string) {
  const token = accessToken ?? (await signIn(emu)).access_token;
  const body = await json(await get(emu, "/api/open/v1/demo/tokens/101", token));
  return String(body.proxy_access_token);
}
