import { describe, expect, it } from "vitest";
import { createFakeFetch, json } from "../transport/fake-fetch.fixtures.ts";
import { getAccessTokenDetail, getUserInfo, listAccessTokens } from "./index.ts";

const baseUrl = "http://127.0.0.1:4010";
const meta = { id: 7, name: "Studio (paid)", usage_scenario: "paid" };

describe("getUserInfo (spec 4.3)", () => {
  it("sends the OAuth token as a bearer to the user-info endpoint", async () => {
    const user = { id: 1001, login: "demo", name: "Demo Listener", avatar_url: "a" };
    const fake = createFakeFetch().reply(json(200, user));
    expect(await getUserInfo({ baseUrl, accessToken: "at", fetch: fake.fetch })).toEqual(user);
    expect(fake.requests[0]?.url).toBe(`${baseUrl}/api/open/v1/userinfo`);
    expect(fake.requests[0]?.headers.get("authorization")).toBe("Bearer at");
  });

  it("reports a 401 as PLATFORM_UNAUTHORIZED", async () => {
    const fake = createFakeFetch().reply(json(401, { error: "unauthorized", message: "expired" }));
    await expect(
      getUserInfo({ baseUrl, accessToken: "at", fetch: fake.fetch }),
    ).rejects.toMatchObject({
      code: "PLATFORM_UNAUTHORIZED",
    });
  });
});

describe("listAccessTokens (spec 4.4)", () => {
  it("gets the namespace's token list", async () => {
    const fake = createFakeFetch().reply(json(200, [meta]));
    expect(
      await listAccessTokens({
        baseUrl,
        accessToken: "at",
        namespace: "overture-lab",
        fetch: fake.fetch,
      }),
    ).toEqual([meta]);
    expect(fake.requests[0]?.url).toBe(`${baseUrl}/api/open/v1/overture-lab/tokens`);
  });

  it("percent-encodes the namespace", async () => {
    const fake = createFakeFetch().reply(json(200, []));
    await listAccessTokens({ baseUrl, accessToken: "at", namespace: "a/b c", fetch: fake.fetch });
    expect(fake.requests[0]?.url).toBe(`${baseUrl}/api/open/v1/a%2Fb%20c/tokens`);
  });

  it("reports a body that is not a list as PLATFORM_INVALID_RESPONSE and keeps it", async () => {
    const fake = createFakeFetch().reply(json(200, { data: [meta] }));
    await expect(
      listAccessTokens({ baseUrl, accessToken: "at", namespace: "demo", fetch: fake.fetch }),
    ).rejects.toMatchObject({ code: "PLATFORM_INVALID_RESPONSE", body: { data: [meta] } });
  });
});

describe("getAccessTokenDetail (spec 4.5)", () => {
  it("gets one token's detail by namespace and id", async () => {
    const detail = { ...meta, proxy_access_token: "jwt", expires_in: 1800 };
    const fake = createFakeFetch().reply(json(200, detail));
    expect(
      await getAccessTokenDetail({
        baseUrl,
        accessToken: "at",
        namespace: "demo",
        id: 7,
        fetch: fake.fetch,
      }),
    ).toEqual(detail);
    expect(fake.requests[0]?.url).toBe(`${baseUrl}/api/open/v1/demo/tokens/7`);
  });
});
