import { describe, expect, it } from "vitest";
import { API_URL, rejectionOf, setupClient } from "./client.fixtures.ts";
import { json } from "../transport/fake-fetch.fixtures.ts";

describe("getBalance (the live balance endpoint)", () => {
  it("gets the account's credit at {api_url}/v1/tokens/packages/balance with the API token", async () => {
    const { fake, client } = setupClient();
    const body = { total_amount: 100, used_amount: 2, balance: 98, details: [] };
    fake.reply(json(200, body));
    expect(await client.getBalance("proxy-jwt")).toEqual(body);
    expect(fake.requests[0]?.method).toBe("GET");
    expect(fake.requests[0]?.url).toBe(`${API_URL}/v1/tokens/packages/balance`);
    expect(fake.requests[0]?.headers.get("authorization")).toBe("Bearer proxy-jwt");
  });

  it("retries a 503, as every read does", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(503, { message: "busy" }));
    fake.reply(json(200, { balance: 1 }));
    expect(await client.getBalance("tok")).toEqual({ balance: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  it("answers a 401 as PLATFORM_UNAUTHORIZED", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(401, { error: "invalid_token" }));
    expect(await rejectionOf(client.getBalance("tok"))).toMatchObject({
      code: "PLATFORM_UNAUTHORIZED",
    });
  });
});
