import { describe, expect, it } from "vitest";
import { endpoint } from "./urls.ts";

describe("endpoint", () => {
  it("joins a base without a trailing slash and a path", () => {
    expect(endpoint("http://127.0.0.1:4010", "/v1/tasks/available-quota")).toBe(
      "http://127.0.0.1:4010/v1/tasks/available-quota",
    );
  });

  it("drops trailing slashes of the base and keeps its path prefix", () => {
    expect(endpoint("https://api.test/prefix//", "/api/v1/task/{}", "t1")).toBe(
      "https://api.test/prefix/api/v1/task/t1",
    );
  });

  it("percent-encodes each placeholder value", () => {
    expect(endpoint("https://a.test", "/x/{}/y/{}", "a/b", 7)).toBe("https://a.test/x/a%2Fb/y/7");
  });
});
