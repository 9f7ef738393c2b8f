import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isPlatformError } from "../errors/index.ts";
import { connectionRefused, createFakeFetch, json } from "./fake-fetch.fixtures.ts";
import {
  isRequestTimeout,
  parseRetryAfter,
  sendPlatformRequest,
  type PlatformRequest,
} from "./request.ts";

const schema = z.looseObject({ status: z.string() });
const get: PlatformRequest<z.infer<typeof schema>> = {
  method: "GET",
  url: "http://127.0.0.1:4010/api/v1/task/t1?secret=query",
  schema,
};

async function failure(promise: Promise<unknown>) {
  const error: unknown = await promise.catch((e: unknown) => e);
  if (!isPlatformError(error)) throw new Error(`expected a PlatformError, got ${String(error)}`);
  return error;
}

describe("sendPlatformRequest", () => {
  it("returns the body validated by the schema", async () => {
    const fake = createFakeFetch().reply(json(200, { status: "waiting", extra: 1 }));
    expect(await sendPlatformRequest(get, { fetch: fake.fetch })).toEqual({
      status: "waiting",
      extra: 1,
    });
  });

  it("asks for JSON", async () => {
    const fake = createFakeFetch().reply(json(200, { status: "waiting" }));
    await sendPlatformRequest(get, { fetch: fake.fetch });
    expect(fake.requests[0]?.headers.get("accept")).toBe("application/json");
  });

  it("reports a body that fails the schema as PLATFORM_INVALID_RESPONSE, naming the field", async () => {
    const fake = createFakeFetch().reply(json(200, { status: 3 }));
    const error = await failure(sendPlatformRequest(get, { fetch: fake.fetch }));
    expect(error).toMatchObject({
      code: "PLATFORM_INVALID_RESPONSE",
      status: 200,
      body: { status: 3 },
    });
    expect(error.message).toContain("status:");
    expect(error.cause).toBeInstanceOf(z.ZodError);
  });

  it("reports a 2xx body that is not JSON as PLATFORM_INVALID_RESPONSE", async () => {
    const fake = createFakeFetch().reply(new Response("<html>ok</html>", { status: 200 }));
    const error = await failure(sendPlatformRequest(get, { fetch: fake.fetch }));
    expect(error).toMatchObject({ code: "PLATFORM_INVALID_RESPONSE", body: "<html>ok</html>" });
  });

  it("reports an empty 2xx body as PLATFORM_INVALID_RESPONSE", async () => {
    const fake = createFakeFetch().reply(new Response(null, { status: 204 }));
    expect((await failure(sendPlatformRequest(get, { fetch: fake.fetch }))).code).toBe(
      "PLATFORM_INVALID_RESPONSE",
    );
  });

  it("reads an empty 2xx body as emptyBody when the request allows one", async () => {
    const fake = createFakeFetch().reply(new Response(null, { status: 204 }));
    const request = { ...get, schema: z.looseObject({}), emptyBody: {} };
    expect(await sendPlatformRequest(request, { fetch: fake.fetch })).toEqual({});
  });

  it("validates a JSON string body against the schema rather than calling it not JSON", async () => {
    const fake = createFakeFetch().reply(json(200, "success"));
    const request = { ...get, schema: z.string() };
    expect(await sendPlatformRequest(request, { fetch: fake.fetch })).toBe("success");
  });

  it("maps an HTTP error with the request's method and path, never its query", async () => {
    const fake = createFakeFetch().reply(
      json(404, { error: "not_found", message: "no such task" }),
    );
    const error = await failure(sendPlatformRequest(get, { fetch: fake.fetch }));
    expect(error.code).toBe("PLATFORM_NOT_FOUND");
    expect(error.message).toContain("GET /api/v1/task/t1");
    expect(error.message).not.toContain("secret");
  });

  it("keeps a non-JSON error body as text", async () => {
    const fake = createFakeFetch().reply(new Response("upstream down", { status: 502 }));
    expect(await failure(sendPlatformRequest(get, { fetch: fake.fetch }))).toMatchObject({
      code: "PLATFORM_SERVER_ERROR",
      body: "upstream down",
    });
  });

  it("reads Retry-After into retryAfterMs", async () => {
    const fake = createFakeFetch().reply(
      json(429, { error: "rate_limited" }, { "Retry-After": "3" }),
    );
    expect((await failure(sendPlatformRequest(get, { fetch: fake.fetch }))).retryAfterMs).toBe(
      3000,
    );
  });

  it("reports a fetch failure as PLATFORM_NETWORK_ERROR with the fetch error as cause", async () => {
    const refused = connectionRefused();
    const fake = createFakeFetch().reply(refused);
    const error = await failure(sendPlatformRequest(get, { fetch: fake.fetch }));
    expect(error.code).toBe("PLATFORM_NETWORK_ERROR");
    expect(error.cause).toBe(refused);
  });

  it("does not send a request when the signal has already aborted", async () => {
    const fake = createFakeFetch();
    const error = await failure(
      sendPlatformRequest(get, { fetch: fake.fetch, signal: AbortSignal.abort() }),
    );
    expect(error.code).toBe("PLATFORM_ABORTED");
    expect(fake.requests).toHaveLength(0);
  });

  it("ends a pending request with PLATFORM_ABORTED when the signal aborts", async () => {
    const controller = new AbortController();
    const fake = createFakeFetch().reply("hang");
    const pending = sendPlatformRequest(get, { fetch: fake.fetch, signal: controller.signal });
    controller.abort(new Error("user left"));
    const error = await failure(pending);
    expect(error.code).toBe("PLATFORM_ABORTED");
    expect(error.cause).toEqual(new Error("user left"));
  });

  it("ends a request without an answer in time as a PLATFORM_NETWORK_ERROR timeout", async () => {
    const fake = createFakeFetch().reply("hang");
    const error = await failure(sendPlatformRequest(get, { fetch: fake.fetch, timeoutMs: 1 }));
    expect(error.code).toBe("PLATFORM_NETWORK_ERROR");
    expect(isRequestTimeout(error)).toBe(true);
  });

  it("does not call a plain network failure a timeout", async () => {
    const fake = createFakeFetch().reply(connectionRefused());
    expect(isRequestTimeout(await failure(sendPlatformRequest(get, { fetch: fake.fetch })))).toBe(
      false,
    );
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);

  it("reads delta-seconds", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
  });

  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 12:00:30 GMT", now)).toBe(30_000);
  });

  it("reads a date in the past as 0", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 11:00:00 GMT", now)).toBe(0);
  });

  it("ignores a missing or unreadable value", () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
  });
});
