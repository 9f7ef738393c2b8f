import { describe, expect, it } from "vitest";
import {
  accessTokenDetailSchema,
  accessTokenListSchema,
  accessTokenMetaSchema,
  userInfoSchema,
} from "./index.ts";

const user = {
  id: 1001,
  login: "demo",
  name: "Demo Listener",
  avatar_url: "https://example.test/a.png",
};
const meta = { id: 7, name: "Studio (paid)", usage_scenario: "paid" };

describe("userInfoSchema (spec 2.3)", () => {
  it("parses the four fields of the spec", () => {
    expect(userInfoSchema.parse(user)).toEqual(user);
  });

  it("keeps fields beyond the four of the spec", () => {
    expect(userInfoSchema.parse({ ...user, email: "d@example.test" })).toMatchObject({
      email: "d@example.test",
    });
  });

  it("accepts a null name and a missing avatar_url", () => {
    expect(userInfoSchema.parse({ id: 1, login: "x", name: null })).toEqual({
      id: 1,
      login: "x",
      name: null,
    });
  });

  it("rejects an id that is not an integer", () => {
    expect(userInfoSchema.safeParse({ ...user, id: "1001" }).success).toBe(false);
  });

  it("rejects a missing login", () => {
    expect(userInfoSchema.safeParse({ ...user, login: undefined }).success).toBe(false);
  });
});

describe("accessTokenMetaSchema and accessTokenListSchema (spec 2.4, 4.4)", () => {
  it("parses a JSON array of meta", () => {
    expect(accessTokenListSchema.parse([meta])).toEqual([meta]);
  });

  it("keeps an unknown usage_scenario as a string", () => {
    expect(accessTokenMetaSchema.parse({ ...meta, usage_scenario: "enterprise" })).toMatchObject({
      usage_scenario: "enterprise",
    });
  });

  it("rejects a list wrapped in an object", () => {
    expect(accessTokenListSchema.safeParse({ data: [meta] }).success).toBe(false);
  });
});

describe("accessTokenDetailSchema (spec 2.5)", () => {
  const detail = { ...meta, proxy_access_token: "eyJ.a.b", expires_in: 1800 };

  it("parses meta plus the proxy token and its lifetime", () => {
    expect(accessTokenDetailSchema.parse(detail)).toEqual(detail);
  });

  it("keeps fields the spec does not list", () => {
    expect(accessTokenDetailSchema.parse({ ...detail, namespace: "demo" })).toMatchObject({
      namespace: "demo",
    });
  });

  it("reads expires_in given as a numeric string as a number", () => {
    expect(accessTokenDetailSchema.parse({ ...detail, expires_in: "1800" }).expires_in).toBe(1800);
  });

  it("rejects a detail without proxy_access_token", () => {
    const { proxy_access_token: _, ...rest } = detail;
    expect(accessTokenDetailSchema.safeParse(rest).success).toBe(false);
  });

  it("rejects a detail without expires_in", () => {
    const { expires_in: _, ...rest } = detail;
    expect(accessTokenDetailSchema.safeParse(rest).success).toBe(false);
  });
});
