import { describe, expect, it } from "vitest";
import { authorizeUrl } from "./index.ts";

const options = {
  baseUrl: "http://127.0.0.1:4010",
  clientId: "overture-local",
  redirectUri: "http://127.0.0.1:8787/oauth/callback",
  scope: ["user_info", "api_key"],
  state: "s-1",
};

describe("authorizeUrl (spec 4.1)", () => {
  it("builds the authorization page address with every parameter of the spec", () => {
    expect(authorizeUrl(options)).toBe(
      "http://127.0.0.1:4010/oauth/authorize?response_type=code&client_id=overture-local" +
        "&redirect_uri=http%3A%2F%2F127.0.0.1%3A8787%2Foauth%2Fcallback" +
        "&scope=user_info%20api_key&state=s-1",
    );
  });

  it("joins a scope list with spaces", () => {
    expect(new URL(authorizeUrl(options)).searchParams.get("scope")).toBe("user_info api_key");
  });

  it("encodes spaces as %20, so plain percent-decoding reads them too", () => {
    const query = new URL(authorizeUrl(options)).search;
    expect(decodeURIComponent(query)).toContain("scope=user_info api_key");
  });

  it("sends a scope string as given", () => {
    expect(
      new URL(authorizeUrl({ ...options, scope: "user_info" })).searchParams.get("scope"),
    ).toBe("user_info");
  });

  it("ignores a trailing slash of the base URL", () => {
    expect(authorizeUrl({ ...options, baseUrl: "http://127.0.0.1:4010/" })).toMatch(
      /^http:\/\/127\.0\.0\.1:4010\/oauth\/authorize\?/,
    );
  });

  it("keeps a path prefix of the base URL", () => {
    expect(authorizeUrl({ ...options, baseUrl: "https://p.test/platform" })).toMatch(
      /^https:\/\/p\.test\/platform\/oauth\/authorize\?/,
    );
  });

  it("returns the state unchanged after decoding", () => {
    const state = "a+b/c=d&e";
    expect(new URL(authorizeUrl({ ...options, state })).searchParams.get("state")).toBe(state);
  });
});
