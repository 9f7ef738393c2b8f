import { describe, expect, it } from "vitest";
import { BASE_URL, rejectionOf, setupClient } from "./client.fixtures.ts";
import { connectionRefused, connectionReset, json } from "../transport/fake-fetch.fixtures.ts";

const waiting = { task_id: "t1", status: "waiting" };
const token = { access_token: "at", token_type: "Bearer", expires_in: 7200, refresh_token: "rt" };
const params = { prompt: "lofi" };
const submitted = { task_id: "t1", urls: { get: "g" } };

describe("retries of idempotent requests", () => {
  it("retries a GET after HTTP 503 and returns the later answer", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(503, { error: "unavailable" }), json(200, waiting));
    expect(await client.getTask("tok", "t1")).toEqual(waiting);
    expect(fake.requests).toHaveLength(2);
  });

  it("retries a GET after a reset connection", async () => {
    const { fake, client } = setupClient();
    fake.reply(connectionReset(), json(200, waiting));
    expect(await client.getTask("tok", "t1")).toEqual(waiting);
  });

  it("backs off exponentially with jitter between retries", async () => {
    const { fake, clock, client } = setupClient({ random: () => 0 });
    fake.reply(json(502, {}), json(502, {}), json(502, {}), json(200, waiting));
    await client.getTask("tok", "t1");
    expect(clock.sleeps).toEqual([250, 500, 1000]);
  });

  it("spreads the back-off with the random source", async () => {
    const { fake, clock, client } = setupClient({ random: () => 0.5 });
    fake.reply(json(502, {}), json(200, waiting));
    await client.getTask("tok", "t1");
    expect(clock.sleeps).toEqual([375]);
  });

  it("waits as long as Retry-After says, in seconds", async () => {
    const { fake, clock, client } = setupClient();
    fake.reply(json(429, { error: "rate_limited" }, { "Retry-After": "2" }), json(200, waiting));
    await client.getTask("tok", "t1");
    expect(clock.sleeps).toEqual([2000]);
  });

  it("waits until a Retry-After HTTP date on the client's clock", async () => {
    const { fake, clock, client } = setupClient();
    const at = new Date(clock.now() + 7000).toUTCString();
    fake.reply(json(503, {}, { "Retry-After": at }), json(200, waiting));
    await client.getTask("tok", "t1");
    expect(clock.sleeps).toEqual([7000]);
  });

  it("does not retry when Retry-After is longer than maxRetryAfterMs, and reports it", async () => {
    const { fake, client } = setupClient({ retry: { maxRetryAfterMs: 10_000 } });
    fake.reply(json(429, { error: "rate_limited" }, { "Retry-After": "3600" }));
    expect(await rejectionOf(client.getTask("tok", "t1"))).toMatchObject({
      code: "PLATFORM_RATE_LIMITED",
      retryAfterMs: 3_600_000,
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("gives up after the configured number of retries with the last error", async () => {
    const { fake, client } = setupClient({ retry: { retries: 2 } });
    fake.reply(json(503, {}), json(503, {}), json(500, { message: "last" }));
    const error = await rejectionOf(client.getTask("tok", "t1"));
    expect(error).toMatchObject({ code: "PLATFORM_SERVER_ERROR", status: 500 });
    expect(fake.requests).toHaveLength(3);
  });

  it("takes a per-call number of retries", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(503, {}));
    await rejectionOf(client.getTask("tok", "t1", { retries: 0 }));
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    [401, "PLATFORM_UNAUTHORIZED"],
    [400, "PLATFORM_BAD_REQUEST"],
    [404, "PLATFORM_NOT_FOUND"],
  ])("does not retry HTTP %i", async (status, code) => {
    const { fake, client } = setupClient();
    fake.reply(json(status, {}));
    expect(await rejectionOf(client.getTask("tok", "t1"))).toMatchObject({ code });
    expect(fake.requests).toHaveLength(1);
  });

  it("does not retry an invalid response", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, { nope: true }));
    expect(await rejectionOf(client.getTask("tok", "t1"))).toMatchObject({
      code: "PLATFORM_INVALID_RESPONSE",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("retries a cancel after HTTP 503 (cancel is idempotent)", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(503, {}), json(200, { status: "cancelled" }));
    expect(await client.cancelTask("tok", "t1")).toEqual({ status: "cancelled" });
    expect(fake.requests).toHaveLength(2);
  });

  it("retries the open endpoints after HTTP 502", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(502, {}), json(200, { id: 1001, login: "demo" }));
    expect(await client.getUserInfo("at")).toEqual({ id: 1001, login: "demo" });
  });

  it("ends the back-off at once with PLATFORM_ABORTED when the signal aborts", async () => {
    const { fake, clock, client } = setupClient();
    const controller = new AbortController();
    clock.onSleep = () => {
      controller.abort();
    };
    fake.reply(json(503, {}));
    expect(
      await rejectionOf(client.getTask("tok", "t1", { signal: controller.signal })),
    ).toMatchObject({ code: "PLATFORM_ABORTED" });
    expect(fake.requests).toHaveLength(1);
  });
});

describe("retries of a submit", () => {
  it("retries a submit whose connection was refused: it provably never left", async () => {
    const { fake, client } = setupClient();
    fake.reply(connectionRefused(), json(200, submitted));
    expect(await client.submitMusicTask("tok", params)).toEqual(submitted);
    expect(fake.requests).toHaveLength(2);
  });

  it("does not retry a submit after a reset connection", async () => {
    const { fake, client } = setupClient();
    fake.reply(connectionReset());
    expect(await rejectionOf(client.submitMusicTask("tok", params))).toMatchObject({
      code: "PLATFORM_NETWORK_ERROR",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("does not retry a submit after a per-request timeout", async () => {
    const { fake, client } = setupClient({ timeoutMs: 1 });
    fake.reply("hang");
    expect(await rejectionOf(client.submitMusicTask("tok", params))).toMatchObject({
      code: "PLATFORM_NETWORK_ERROR",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("does not retry a submit after HTTP 503", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(503, {}));
    await rejectionOf(client.submitMusicTask("tok", params));
    expect(fake.requests).toHaveLength(1);
  });

  it("does not retry a submit after a 429 rate limit, and reports Retry-After", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(429, { error: "rate_limited" }, { "Retry-After": "1" }));
    expect(await rejectionOf(client.submitMusicTask("tok", params))).toMatchObject({
      code: "PLATFORM_RATE_LIMITED",
      retryAfterMs: 1000,
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("uses a custom never-sent predicate when given", async () => {
    const { fake, client } = setupClient({ retry: { requestNeverSent: () => true } });
    fake.reply(connectionReset(), json(200, submitted));
    expect(await client.submitMusicTask("tok", params)).toEqual(submitted);
  });

  it("stops retrying a refused submit after the configured retries", async () => {
    const { fake, client } = setupClient({ retry: { retries: 1 } });
    fake.reply(connectionRefused(), connectionRefused());
    expect(await rejectionOf(client.submitMusicTask("tok", params))).toMatchObject({
      code: "PLATFORM_NETWORK_ERROR",
    });
    expect(fake.requests).toHaveLength(2);
  });
});

describe("token endpoint through the client", () => {
  it("exchanges a code at {base_url} with the client's credentials", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, token));
    expect(
      await client.exchangeCode({
        code: "c1",
        redirectUri: "http://127.0.0.1:8787/oauth/callback",
      }),
    ).toEqual(token);
    expect(fake.requests[0]?.url).toBe(`${BASE_URL}/api/open/oauth/token`);
    expect(fake.requests[0]?.headers.get("authorization")).toMatch(/^Basic /);
  });

  it("sends form credentials when the client is set to clientAuth form", async () => {
    const { fake, client } = setupClient({ clientAuth: "form" });
    fake.reply(json(200, token));
    await client.refreshGrant({ refreshToken: "rt" });
    expect(new URLSearchParams(await fake.requests[0]?.text()).get("client_id")).toBe(
      "overture-local",
    );
  });

  it("never retries a code exchange, even after HTTP 503", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(503, {}));
    await rejectionOf(client.exchangeCode({ code: "c1", redirectUri: "r" }));
    expect(fake.requests).toHaveLength(1);
  });

  it("never retries a code exchange, even after a refused connection", async () => {
    const { fake, client } = setupClient();
    fake.reply(connectionRefused());
    await rejectionOf(client.exchangeCode({ code: "c1", redirectUri: "r" }));
    expect(fake.requests).toHaveLength(1);
  });

  it("never retries a refresh after a network error", async () => {
    const { fake, client } = setupClient();
    fake.reply(connectionReset());
    expect(await rejectionOf(client.refreshGrant({ refreshToken: "rt" }))).toMatchObject({
      code: "PLATFORM_NETWORK_ERROR",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("rejects a code exchange without client credentials with a TypeError", async () => {
    const { fake, client } = setupClient({ clientSecret: undefined });
    expect(await rejectionOf(client.exchangeCode({ code: "c1", redirectUri: "r" }))).toBeInstanceOf(
      TypeError,
    );
    expect(fake.requests).toHaveLength(0);
  });
});

describe("open endpoints through the client", () => {
  it("lists the tokens of a namespace at {base_url}", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, []));
    await client.listAccessTokens("at", "overture-lab");
    expect(fake.requests[0]?.url).toBe(`${BASE_URL}/api/open/v1/overture-lab/tokens`);
  });

  it("gets a token's detail at {base_url}", async () => {
    const { fake, client } = setupClient();
    fake.reply(
      json(200, {
        id: 7,
        name: "n",
        usage_scenario: "paid",
        proxy_access_token: "j",
        expires_in: 1800,
      }),
    );
    await client.getAccessTokenDetail("at", "demo", 7);
    expect(fake.requests[0]?.url).toBe(`${BASE_URL}/api/open/v1/demo/tokens/7`);
  });
});
