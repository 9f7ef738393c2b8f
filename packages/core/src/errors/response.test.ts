import { describe, expect, it } from "vitest";
import { errorFromResponse, readErrorBody } from "./index.ts";

describe("readErrorBody (spec 7)", () => {
  it.each([
    [{ error: "bad_request", message: "prompt is required" }, "bad_request", "prompt is required"],
    [{ error: "invalid_grant", error_description: "code used" }, "invalid_grant", "code used"],
    [{ message: "prompt is required" }, undefined, "prompt is required"],
    [{ error: { code: "E400", message: "bad duration" } }, "E400", "bad duration"],
    [{ error: { code: 42 } }, "42", undefined],
    [{ code: "not_found", message: "no task" }, "not_found", "no task"],
    [{ detail: "Not Found" }, undefined, "Not Found"],
    [
      { detail: [{ msg: "field required" }, { msg: "too long" }] },
      undefined,
      "field required; too long",
    ],
    ["Service Unavailable", undefined, "Service Unavailable"],
    [{ error_message: "必传参数: prompt" }, undefined, "必传参数: prompt"],
    [
      { code: 500, message: "Service Temporarily Unavailable" },
      "500",
      "Service Temporarily Unavailable",
    ],
  ])("reads %j", (body, code, message) => {
    expect(readErrorBody(body)).toEqual({
      ...(code === undefined ? {} : { code }),
      ...(message === undefined ? {} : { message }),
    });
  });

  it("ignores an HTML body", () => {
    expect(readErrorBody("<html><body>502 Bad Gateway</body></html>")).toEqual({});
  });

  it("ignores bodies that are not objects or text", () => {
    expect(readErrorBody(null)).toEqual({});
    expect(readErrorBody(42)).toEqual({});
  });

  it("shortens a very long message", () => {
    expect(readErrorBody({ message: "x".repeat(2000) }).message).toHaveLength(501);
  });
});

describe("errorFromResponse", () => {
  it("names the request and the platform's message for a 400", () => {
    const error = errorFromResponse({
      status: 400,
      body: { error: "bad_request", message: "prompt is required" },
      request: "POST /v1/async/music/generations",
    });
    expect(error.code).toBe("PLATFORM_BAD_REQUEST");
    expect(error.message).toBe(
      "The platform rejected the request (HTTP 400, bad_request, on POST /v1/async/music/generations): prompt is required",
    );
  });

  it("keeps status, body and the body's code", () => {
    const body = { error: "bad_request", message: "x" };
    expect(errorFromResponse({ status: 400, body })).toMatchObject({
      status: 400,
      body,
      platformCode: "bad_request",
    });
  });

  it.each([
    [401, "PLATFORM_UNAUTHORIZED"],
    [403, "PLATFORM_FORBIDDEN"],
    [404, "PLATFORM_NOT_FOUND"],
    [409, "PLATFORM_BAD_REQUEST"],
    [422, "PLATFORM_BAD_REQUEST"],
    [429, "PLATFORM_RATE_LIMITED"],
    [500, "PLATFORM_SERVER_ERROR"],
    [503, "PLATFORM_SERVER_ERROR"],
  ])("maps a bare HTTP %i to %s", (status, code) => {
    expect(errorFromResponse({ status }).code).toBe(code);
  });

  it("reads a 429 with error quota_exceeded as QUOTA_EXHAUSTED", () => {
    const body = { error: "quota_exceeded", message: "Concurrency quota of 2 reached" };
    expect(errorFromResponse({ status: 429, body }).code).toBe("QUOTA_EXHAUSTED");
  });

  it("reads a 429 with error rate_limited as PLATFORM_RATE_LIMITED and keeps Retry-After", () => {
    const error = errorFromResponse({
      status: 429,
      body: { error: "rate_limited", message: "slow down" },
      retryAfterMs: 2000,
    });
    expect(error).toMatchObject({ code: "PLATFORM_RATE_LIMITED", retryAfterMs: 2000 });
  });

  it("reads a 403 whose message is about quota as QUOTA_EXHAUSTED", () => {
    const body = { message: "Task concurrency limit exceeded" };
    expect(errorFromResponse({ status: 403, body }).code).toBe("QUOTA_EXHAUSTED");
  });

  it("reads a 403 with error quota_exceeded as QUOTA_EXHAUSTED", () => {
    expect(errorFromResponse({ status: 403, body: { error: "quota_exceeded" } }).code).toBe(
      "QUOTA_EXHAUSTED",
    );
  });

  it("reads a 429 whose message is about quota as QUOTA_EXHAUSTED", () => {
    expect(errorFromResponse({ status: 429, body: { message: "quota exhausted" } }).code).toBe(
      "QUOTA_EXHAUSTED",
    );
  });

  it("names the platform's error_message in the message of a 400, as the live platform answers", () => {
    const error = errorFromResponse({
      status: 400,
      body: { error_message: "必传参数: prompt" },
      request: "POST /v1/async/music/generations",
    });
    expect(error.code).toBe("PLATFORM_BAD_REQUEST");
    expect(error.message).toContain(": 必传参数: prompt");
  });

  it.each([
    [400, { message: "Task quota exceeded, wait for running tasks" }],
    [400, { error_message: "并发任务数已达上限" }],
    [429, { message: "当前账户配额不足" }],
  ])("reads a %i whose message names the quota as QUOTA_EXHAUSTED: %j", (status, body) => {
    expect(errorFromResponse({ status, body }).code).toBe("QUOTA_EXHAUSTED");
  });

  it("does not read a 401 or a 404 that mentions quota as QUOTA_EXHAUSTED", () => {
    const body = { message: "quota service: token expired" };
    expect(errorFromResponse({ status: 401, body }).code).toBe("PLATFORM_UNAUTHORIZED");
    expect(errorFromResponse({ status: 404, body }).code).toBe("PLATFORM_NOT_FOUND");
  });

  it("carries the task id when given", () => {
    expect(errorFromResponse({ status: 404, taskId: "t1" }).taskId).toBe("t1");
  });

  describe("on the token endpoint (RFC 6749 §5.2)", () => {
    it("reads invalid_grant as OAUTH_INVALID_GRANT and keeps error_description", () => {
      const error = errorFromResponse({
        status: 400,
        body: { error: "invalid_grant", error_description: "authorization code already used" },
        tokenEndpoint: true,
      });
      expect(error.code).toBe("OAUTH_INVALID_GRANT");
      expect(error.message).toContain("authorization code already used");
    });

    it("reads invalid_client as OAUTH_INVALID_CLIENT", () => {
      const body = { error: "invalid_client" };
      expect(errorFromResponse({ status: 401, body, tokenEndpoint: true }).code).toBe(
        "OAUTH_INVALID_CLIENT",
      );
    });

    it("reads unauthorized_client as OAUTH_INVALID_CLIENT", () => {
      const body = { error: "unauthorized_client" };
      expect(errorFromResponse({ status: 400, body, tokenEndpoint: true }).code).toBe(
        "OAUTH_INVALID_CLIENT",
      );
    });

    it("reads a 401 without an error body as OAUTH_INVALID_CLIENT", () => {
      expect(errorFromResponse({ status: 401, tokenEndpoint: true }).code).toBe(
        "OAUTH_INVALID_CLIENT",
      );
    });

    it("reads other RFC 6749 errors as PLATFORM_BAD_REQUEST", () => {
      const body = { error: "unsupported_grant_type" };
      expect(errorFromResponse({ status: 400, body, tokenEndpoint: true }).code).toBe(
        "PLATFORM_BAD_REQUEST",
      );
    });

    it("does not read invalid_grant as an OAuth error away from the token endpoint", () => {
      const body = { error: "invalid_grant" };
      expect(errorFromResponse({ status: 401, body }).code).toBe("PLATFORM_UNAUTHORIZED");
    });
  });
});
