import { describe, expect, it } from "vitest";
import { originPattern, parseBackendUrl } from "./backend-url.ts";

describe("backend address", () => {
  it("keeps the origin of an http(s) address", () => {
    expect(parseBackendUrl(" https://overture.example:8443/api/?x=1 ")).toBe(
      "https://overture.example:8443",
    );
  });

  it("refuses another scheme", () => {
    expect(parseBackendUrl("ftp://overture.example")).toBeNull();
  });

  it("refuses an address with credentials", () => {
    expect(parseBackendUrl("https://user:pw@overture.example")).toBeNull();
  });

  it("refuses text that is not an address", () => {
    expect(parseBackendUrl("overture")).toBeNull();
  });

  it("asks for the host on every port (match patterns have no port)", () => {
    expect(originPattern("http://127.0.0.1:8787")).toBe("http://127.0.0.1/*");
  });
});
