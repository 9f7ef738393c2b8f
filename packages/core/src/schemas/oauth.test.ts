import { describe, expect, it } from "vitest";
import { oauthErrorBodySchema, tokenResponseSchema } from "./index.ts";

const token = {
  access_token: "at-1",
  token_type: "Bearer",
  expires_in: 7200,
  refresh_token: "rt-1",
  scope: "user_info api_key",
};

describe("tokenResponseSchema (spec 2.2)", () => {
  it("parses the token response of the spec", () => {
    expect(tokenResponseSchema.parse(token)).toEqual(token);
  });

  it("keeps fields the spec does not list", () => {
    expect(tokenResponseSchema.parse({ ...token, created_at: 1700000000 })).toMatchObject({
      created_at: 1700000000,
    });
  });

  it("reads expires_in given as a numeric string as a number", () => {
    expect(tokenResponseSchema.parse({ ...token, expires_in: "7200" }).expires_in).toBe(7200);
  });

  it("rejects an expires_in that is not a number", () => {
    expect(tokenResponseSchema.safeParse({ ...token, expires_in: "soon" }).success).toBe(false);
  });

  it("rejects a negative expires_in", () => {
    expect(tokenResponseSchema.safeParse({ ...token, expires_in: -1 }).success).toBe(false);
  });

  it("rejects a response without access_token", () => {
    const { access_token: _, ...rest } = token;
    expect(tokenResponseSchema.safeParse(rest).success).toBe(false);
  });

  it.each(["expires_in", "refresh_token", "scope"])("reads a null %s as absent", (field) => {
    const parsed = tokenResponseSchema.parse({ ...token, [field]: null });
    expect(parsed).not.toHaveProperty(field, null);
    expect(parsed[field]).toBeUndefined();
    expect(parsed.access_token).toBe("at-1");
  });

  it.each([undefined, null])("reads a token_type of %s as Bearer", (type) => {
    expect(tokenResponseSchema.parse({ ...token, token_type: type }).token_type).toBe("Bearer");
  });

  it("keeps a token_type other than Bearer as given", () => {
    expect(tokenResponseSchema.parse({ ...token, token_type: "bearer" }).token_type).toBe("bearer");
  });

  it("reads an empty refresh_token as absent", () => {
    expect(
      tokenResponseSchema.parse({ ...token, refresh_token: "" }).refresh_token,
    ).toBeUndefined();
  });

  it("accepts a response without refresh_token, scope and expires_in (RFC 6749 §5.1)", () => {
    expect(tokenResponseSchema.parse({ access_token: "at", token_type: "Bearer" })).toEqual({
      access_token: "at",
      token_type: "Bearer",
    });
  });
});

describe("oauthErrorBodySchema", () => {
  it("parses an RFC 6749 error body", () => {
    const body = { error: "invalid_grant", error_description: "code already used" };
    expect(oauthErrorBodySchema.parse(body)).toEqual(body);
  });

  it("rejects a body without error", () => {
    expect(oauthErrorBodySchema.safeParse({ message: "nope" }).success).toBe(false);
  });
});
