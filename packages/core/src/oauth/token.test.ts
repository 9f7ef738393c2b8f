import { describe, expect, it } from "vitest";
import { createFakeFetch, json } from "../transport/fake-fetch.fixtures.ts";
import { OAUTH_INVALID_CLIENT, isPlatformError } from "../errors/index.ts";
import { basicAuthorization, exchangeCode, refreshGrant } from "./index.ts";

const token = {
  access_token: "at",
  token_type: "Bearer",
  expires_in: 7200,
  refresh_token: "rt",
  scope: "user_info api_key",
};
const client = {
  baseUrl: "http://127.0.0.1:4010",
  clientId: "overture-local",
  clientSecret: "overture-local-secret-change-me",
};
const redirectUri = "http://127.0.0.1:8787/oauth/callback";

async function formOf(request: Request | undefined) {
  return Object.fromEntries(new URLSearchParams(await request?.text()));
}

describe("exchangeCode (spec 4.2)", () => {
  it("posts the code grant as a form to the token endpoint", async () => {
    const fake = createFakeFetch().reply(json(200, token));
    await exchangeCode({ ...client, fetch: fake.fetch, code: "c1", redirectUri });
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("http://127.0.0.1:4010/api/open/oauth/token");
    expect(request?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(await formOf(request)).toEqual({
      grant_type: "authorization_code",
      code: "c1",
      redirect_uri: redirectUri,
    });
  });

  it("authenticates with HTTP Basic by default and leaves the credentials out of the form", async () => {
    const fake = createFakeFetch().reply(json(200, token));
    await exchangeCode({ ...client, fetch: fake.fetch, code: "c1", redirectUri });
    expect(fake.requests[0]?.headers.get("authorization")).toBe(
      `Basic ${btoa("overture-local:overture-local-secret-change-me")}`,
    );
  });

  it("sends the credentials as form fields with clientAuth form", async () => {
    const fake = createFakeFetch().reply(json(200, token));
    await exchangeCode({
      ...client,
      clientAuth: "form",
      fetch: fake.fetch,
      code: "c1",
      redirectUri,
    });
    expect(fake.requests[0]?.headers.get("authorization")).toBeNull();
    expect(await formOf(fake.requests[0])).toMatchObject({
      client_id: "overture-local",
      client_secret: "overture-local-secret-change-me",
    });
  });

  it("returns the parsed token response", async () => {
    const fake = createFakeFetch().reply(json(200, { ...token, expires_in: "7200" }));
    expect(await exchangeCode({ ...client, fetch: fake.fetch, code: "c1", redirectUri })).toEqual(
      token,
    );
  });

  it("reports a used code as OAUTH_INVALID_GRANT with the platform's description", async () => {
    const fake = createFakeFetch().reply(
      json(400, { error: "invalid_grant", error_description: "authorization code already used" }),
    );
    const error: unknown = await exchangeCode({
      ...client,
      fetch: fake.fetch,
      code: "c1",
      redirectUri,
    }).catch((e: unknown) => e);
    expect(isPlatformError(error, "OAUTH_INVALID_GRANT")).toBe(true);
    expect((error as Error).message).toContain("authorization code already used");
  });

  it("reports wrong credentials as OAUTH_INVALID_CLIENT", async () => {
    const fake = createFakeFetch().reply(json(401, { error: "invalid_client" }));
    await expect(
      exchangeCode({ ...client, fetch: fake.fetch, code: "c1", redirectUri }),
    ).rejects.toMatchObject({ code: "OAUTH_INVALID_CLIENT", status: 401 });
  });

  it("reports a token response without access_token as PLATFORM_INVALID_RESPONSE", async () => {
    const fake = createFakeFetch().reply(json(200, { token_type: "Bearer" }));
    await expect(
      exchangeCode({ ...client, fetch: fake.fetch, code: "c1", redirectUri }),
    ).rejects.toMatchObject({ code: "PLATFORM_INVALID_RESPONSE" });
  });
});

describe("refreshGrant (spec 4.2, 3.2)", () => {
  it("posts the refresh grant with Basic credentials", async () => {
    const fake = createFakeFetch().reply(json(200, token));
    await refreshGrant({ ...client, fetch: fake.fetch, refreshToken: "rt-1" });
    expect(await formOf(fake.requests[0])).toEqual({
      grant_type: "refresh_token",
      refresh_token: "rt-1",
    });
    expect(fake.requests[0]?.headers.get("authorization")).toMatch(/^Basic /);
  });

  it("sends the refresh credentials as form fields with clientAuth form", async () => {
    const fake = createFakeFetch().reply(json(200, token));
    await refreshGrant({ ...client, clientAuth: "form", fetch: fake.fetch, refreshToken: "rt-1" });
    expect(fake.requests[0]?.headers.get("authorization")).toBeNull();
    expect(await formOf(fake.requests[0])).toEqual({
      grant_type: "refresh_token",
      refresh_token: "rt-1",
      client_id: "overture-local",
      client_secret: "overture-local-secret-change-me",
    });
  });

  it("reports a refused refresh token as OAUTH_INVALID_GRANT", async () => {
    const fake = createFakeFetch().reply(json(400, { error: "invalid_grant" }));
    await expect(
      refreshGrant({ ...client, fetch: fake.fetch, refreshToken: "rt-1" }),
    ).rejects.toMatchObject({ code: "OAUTH_INVALID_GRANT" });
  });
});

const utf8Base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

// Every character that RFC 6749 §2.3.1 form-encoding would change, and non-ASCII.
const HARD_SECRET = "a+b/c=d:e%f g-é€😀";

describe("basicAuthorization (spec 4.2: base64 of client_id:client_secret)", () => {
  it("is plain base64(id:secret) for unreserved characters", () => {
    expect(basicAuthorization("overture-local", "s3cret")).toBe(
      `Basic ${btoa("overture-local:s3cret")}`,
    );
  });

  it("base64-encodes the UTF-8 bytes of id:secret without form-encoding either", () => {
    expect(basicAuthorization("my app", HARD_SECRET)).toBe(
      `Basic ${utf8Base64(`my app:${HARD_SECRET}`)}`,
    );
  });

  it("form-urlencodes the id and the secret first when RFC 6749 encoding is asked for", () => {
    expect(basicAuthorization("my app", "p+ss:w/rd", { encoding: "rfc6749" })).toBe(
      `Basic ${btoa("my+app:p%2Bss%3Aw%2Frd")}`,
    );
    expect(basicAuthorization("é", "x", { encoding: "rfc6749" })).toBe(`Basic ${btoa("%C3%A9:x")}`);
  });
});

describe("client authentication at the token endpoint (spec 4.2)", () => {
  it("sends the secret as spec 4.2 says by default, whatever characters it has", async () => {
    const fake = createFakeFetch().reply(json(200, token));
    await exchangeCode({
      ...client,
      clientSecret: HARD_SECRET,
      fetch: fake.fetch,
      code: "c1",
      redirectUri,
    });
    const header = fake.requests[0]?.headers.get("authorization") ?? "";
    expect(header).toBe(`Basic ${utf8Base64(`overture-local:${HARD_SECRET}`)}`);
    const decoded = new TextDecoder().decode(
      Uint8Array.from(atob(header.slice("Basic ".length)), (c) => c.charCodeAt(0)),
    );
    expect(decoded).toBe(`overture-local:${HARD_SECRET}`);
  });

  it("sends RFC 6749 form-encoded Basic credentials with clientAuth basic-rfc6749", async () => {
    const fake = createFakeFetch().reply(json(200, token));
    await refreshGrant({
      ...client,
      clientSecret: "p+ss:w/rd",
      clientAuth: "basic-rfc6749",
      fetch: fake.fetch,
      refreshToken: "rt-1",
    });
    expect(fake.requests[0]?.headers.get("authorization")).toBe(
      `Basic ${btoa("overture-local:p%2Bss%3Aw%2Frd")}`,
    );
    expect(await formOf(fake.requests[0])).toEqual({
      grant_type: "refresh_token",
      refresh_token: "rt-1",
    });
  });

  it.each([
    ["an RFC 6749 invalid_client body on 401", json(401, { error: "invalid_client" })],
    ["an RFC 6749 invalid_client body on 400", json(400, { error: "invalid_client" })],
    ["a bare 401", json(401, {})],
  ])("reports %s as a configuration problem, OAUTH_INVALID_CLIENT", async (_, answer) => {
    const fake = createFakeFetch().reply(answer).reply(json(200, token));
    const error: unknown = await exchangeCode({
      ...client,
      fetch: fake.fetch,
      code: "c1",
      redirectUri,
    }).catch((e: unknown) => e);
    expect(isPlatformError(error, OAUTH_INVALID_CLIENT)).toBe(true);
    const message = (error as Error).message;
    expect(message).toMatch(/configuration/i);
    expect(message).toContain("client id");
    expect(message).toContain("client secret");
    expect(message).toContain("client authentication mode");
    expect(message).toContain("HTTP Basic");
    expect(message).toMatch(/not retried/i);
    expect(message).not.toContain(client.clientSecret);
    expect(fake.requests).toHaveLength(1);
  });

  it("names form fields as the mode used when clientAuth is form", async () => {
    const fake = createFakeFetch().reply(json(401, { error: "invalid_client" }));
    const error: unknown = await refreshGrant({
      ...client,
      clientAuth: "form",
      fetch: fake.fetch,
      refreshToken: "rt-1",
    }).catch((e: unknown) => e);
    expect(isPlatformError(error, OAUTH_INVALID_CLIENT)).toBe(true);
    expect((error as Error).message).toContain("form fields");
  });
});
