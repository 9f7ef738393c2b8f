import { describe, expect, it } from "vitest";
import { DEFAULT_SEED } from "./default-seed.ts";
import { parseSeed } from "./schema.ts";

describe("seed", () => {
  it("the default seed is valid and has the project's identities", () => {
    const seed = parseSeed(DEFAULT_SEED);
    expect(seed.users.map((u) => [u.id, u.login])).toEqual([
      [1001, "demo"],
      [1002, "ada"],
    ]);
    expect(seed.applications[0]?.client_id).toBe("overture-local");
    expect(seed.defaultQuota).toBe(2);
  });

  it("lists every cross-reference problem", () => {
    const run = () =>
      parseSeed({
        users: [
          { id: 1, login: "a", name: "A" },
          { id: 1, login: "b", name: "B" },
        ],
        organizations: [{ namespace: "a", members: ["zed"] }],
        accessTokens: [
          { id: 1, namespace: "nowhere", name: "t", usage_scenario: "paid", token: "12345678" },
        ],
      });
    expect(run).toThrow(
      /duplicate user id 1[\s\S]*namespace "a" is used twice[\s\S]*unknown member "zed"[\s\S]*unknown namespace "nowhere"/,
    );
  });

  it("refuses a redirect_uri that is not a URL", () => {
    expect(() =>
      parseSeed({
        users: [{ id: 1, login: "a", name: "A" }],
        applications: [
          { name: "x", redirect_uri: "not a url", client_id: "c", client_secret: "s" },
        ],
      }),
    ).toThrow(/redirect_uri/);
  });
});
