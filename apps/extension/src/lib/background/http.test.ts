import { describe, expect, it } from "vitest";
import { responseError } from "./http.ts";

/** The backend's rate limiter's answer (middleware/rate-limit.ts): body and header agree. */
const rateLimited = (body: Record<string, unknown>, headers: HeadersInit = {}) =>
  Response.json(
    { error: "rate_limited", message: "Too many sign-in requests", ...body },
    {
      status: 429,
      headers,
    },
  );

describe("background: backend refusals become extension codes", () => {
  it("keeps a rate-limited refusal's wait from retry_after_seconds", async () => {
    const error = await responseError(
      rateLimited({ retry_after_seconds: 12 }, { "Retry-After": "12" }),
    );
    expect(error).toMatchObject({ code: "rate_limited", retryAfterSeconds: 12, status: 429 });
  });

  it("reads a rate-limited refusal's wait from Retry-After when the body does not say", async () => {
    const error = await responseError(rateLimited({}, { "Retry-After": "7" }));
    expect(error).toMatchObject({ code: "rate_limited", retryAfterSeconds: 7 });
  });

  it("tells a draining backend apart from an unavailable platform", async () => {
    const draining = Response.json(
      { error: "shutting_down", message: "This instance is shutting down; retry shortly." },
      { status: 503, headers: { "Retry-After": "1" } },
    );
    expect(await responseError(draining)).toMatchObject({ code: "shutting_down" });
  });
});
