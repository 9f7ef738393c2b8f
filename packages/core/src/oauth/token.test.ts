import { describe, expect, it } from "vitest";
import { createFakeFetch, json } from "../client/fake-fetch.fixtures.ts";
import { isPlatformError } from "../errors/index.ts";
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

describe("basicAuthorization (RFC 6749 §2.3.1)", () => {
  it("is plain base64(id:secret) for unreserved characters", () => {
    expect(basicAuthorization("overture-local", "s3cret")).toBe(
      `Basic ${btoa("overture-local:s3cret")}`,
    );
  });

  it("form-urlencodes the id and the secret before base64", () => {
    expect(basicAuthorization("my app", "p+ss:w/rd")).toBe(
      `Basic ${btoa("my+app:p%2Bss%3Aw%2Frd")}`,
    );
  });

  it("encodes non-ASCII credentials as UTF-8 percent-escapes", () => {
    expect(basicAuthorization("é", "x")).toBe(`Basic ${btoa("%C3%A9:x")}`);
  });
});
