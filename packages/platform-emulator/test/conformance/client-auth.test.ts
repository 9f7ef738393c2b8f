import { describe, expect, it } from "vitest";
import type { PlatformEmulatorOptions } from "../../src/index.ts";
import { DEFAULT_SEED } from "../../src/index.ts";
import { CLIENT, json, manualEmulator } from "../helpers/emulator.ts";
import { authorizationCode, tokenRequest } from "../helpers/oauth.ts";

/** Spec 4.2: `Authorization: Basic base64(client_id:client_secret)`, UTF-8, no other step. */
const specBasic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`, "utf8").toString("base64")}`;
/** RFC 6749 2.3.1: id and secret form-urlencoded first. */
const rfcBasic = (id: string, secret: string) =>
  specBasic(encodeURIComponent(id), encodeURIComponent(secret).replace(/%20/g, "+"));

const SPEC_APP = DEFAULT_SEED.applications[1];
const ODD = { id: "odd-client", secret: "s3cr:t+/= %41 é", uri: "http://127.0.0.1:1/cb" };

/** An emulator with an app whose secret reads differently once form-decoded. */
function oddEmulator(options: PlatformEmulatorOptions = {}) {
  return manualEmulator({
    ...options,
    seed: {
      users: [{ id: 1, login: "u", name: "U" }],
      applications: [
        { name: "Odd", client_id: ODD.id, client_secret: ODD.secret, redirect_uri: ODD.uri },
      ],
    },
  });
}

async function exchange(
  emu: ReturnType<typeof manualEmulator>,
  app: { id: string; uri: string },
  authorization: string,
) {
  const code = await authorizationCode(emu, { client_id: app.id, redirect_uri: app.uri });
  const form = { grant_type: "authorization_code", code, redirect_uri: app.uri };
  return tokenRequest(emu, form, { Authorization: authorization });
}

describe("client authentication at the token endpoint (spec 4.2, 5 rule 1)", () => {
  it("4.2: accepts client credentials as HTTP Basic instead of form fields", async () => {
    const emu = manualEmulator();
    const app = { id: CLIENT.id, uri: CLIENT.redirectUri };
    expect((await exchange(emu, app, specBasic(CLIENT.id, CLIENT.secret))).status).toBe(200);
  });

  it("4.2: Basic is base64(client_id:client_secret) as is: the seeded secret with + / = works", async () => {
    expect(SPEC_APP.client_secret).toMatch(/\+.*\/.*=/);
    const emu = manualEmulator();
    const app = { id: SPEC_APP.client_id, uri: SPEC_APP.redirect_uri };
    const res = await exchange(emu, app, specBasic(app.id, SPEC_APP.client_secret));
    expect(res.status).toBe(200);
  });

  it("4.2: splits the decoded UTF-8 text on its first colon (a secret with :, %, space and é)", async () => {
    const res = await exchange(oddEmulator(), ODD, specBasic(ODD.id, ODD.secret));
    expect(res.status).toBe(200);
  });

  it("by default, form-encoded (RFC 6749 2.3.1) credentials are a wrong secret: 401 invalid_client", async () => {
    const res = await exchange(oddEmulator(), ODD, rfcBasic(ODD.id, ODD.secret));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await json(res)).toEqual({
      error: "invalid_client",
      error_description: expect.any(String) as string,
    });
  });

  it("basicAuthEncoding rfc6749: id and secret are form-decoded first", async () => {
    const emu = oddEmulator({ basicAuthEncoding: "rfc6749" });
    expect((await exchange(emu, ODD, rfcBasic(ODD.id, ODD.secret))).status).toBe(200);
    const plain = await exchange(emu, ODD, specBasic(ODD.id, ODD.secret));
    expect(plain.status).toBe(401);
  });

  it("basicAuthEncoding either: both readings are accepted", async () => {
    const emu = oddEmulator({ basicAuthEncoding: "either" });
    expect((await exchange(emu, ODD, rfcBasic(ODD.id, ODD.secret))).status).toBe(200);
    expect((await exchange(emu, ODD, specBasic(ODD.id, ODD.secret))).status).toBe(200);
  });

  it("a wrong Basic secret is 401 with WWW-Authenticate: Basic", async () => {
    const emu = manualEmulator();
    const app = { id: CLIENT.id, uri: CLIENT.redirectUri };
    const res = await exchange(emu, app, specBasic(CLIENT.id, "wrong"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it.each([
    ["not base64", "Basic %%%"],
    ["no colon", `Basic ${Buffer.from("overture-local").toString("base64")}`],
    ["invalid UTF-8", `Basic ${Buffer.from([0x6f, 0x3a, 0xff, 0xfe]).toString("base64")}`],
  ])("malformed Basic credentials (%s) are 401 invalid_client", async (_, authorization) => {
    const emu = manualEmulator();
    const res = await exchange(emu, { id: CLIENT.id, uri: CLIENT.redirectUri }, authorization);
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject({ error: "invalid_client" });
  });

  it("RFC 6749 2.3: sending the secret both as Basic and as a form field is invalid_request", async () => {
    const emu = manualEmulator();
    const code = await authorizationCode(emu);
    const res = await tokenRequest(
      emu,
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: CLIENT.redirectUri,
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
      },
      { Authorization: specBasic(CLIENT.id, CLIENT.secret) },
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: "invalid_request" });
  });
});
