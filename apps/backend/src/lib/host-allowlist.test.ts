import { describe, expect, it } from "vitest";
import { type HostAllowList, isAllowedHost, parseHostEntry } from "./host-allowlist.ts";

const list: HostAllowList = {
  origins: ["http://127.0.0.1:4010"],
  hosts: [{ hostname: "cdn.example.com" }, { hostname: "files.example.com", port: 8443 }],
};
const allowed = (url: string) => isAllowedHost(new URL(url), list);

describe("isAllowedHost", () => {
  it("allows the platform's origin", () => {
    expect(allowed("http://127.0.0.1:4010/files/a.wav")).toBe(true);
  });

  it("refuses the platform's host on another port", () => {
    expect(allowed("http://127.0.0.1:4011/files/a.wav")).toBe(false);
  });

  it("refuses the platform's host and port on another scheme", () => {
    expect(allowed("https://127.0.0.1:4010/files/a.wav")).toBe(false);
  });

  it("allows a listed host without a port on either scheme's default port", () => {
    expect(allowed("https://cdn.example.com/a.wav")).toBe(true);
    expect(allowed("http://cdn.example.com:80/a.wav")).toBe(true);
  });

  it("refuses a listed host without a port on another port", () => {
    expect(allowed("https://cdn.example.com:8443/a.wav")).toBe(false);
  });

  it("allows a listed host with a port on that port only", () => {
    expect(allowed("https://files.example.com:8443/a.wav")).toBe(true);
    expect(allowed("https://files.example.com/a.wav")).toBe(false);
  });

  it("refuses a host that only ends or starts like a listed one", () => {
    expect(allowed("https://evil-cdn.example.com/a.wav")).toBe(false);
    expect(allowed("https://cdn.example.com.evil.test/a.wav")).toBe(false);
  });

  it("refuses a listed host with user info", () => {
    expect(allowed("https://user:pass@cdn.example.com/a.wav")).toBe(false);
  });

  it("refuses a listed host on a scheme other than http(s)", () => {
    expect(allowed("ftp://cdn.example.com/a.wav")).toBe(false);
  });
});

describe("parseHostEntry", () => {
  it("reads a host name, lower-cased, with an optional port", () => {
    expect(parseHostEntry("CDN.Example.com")).toEqual({ hostname: "cdn.example.com" });
    expect(parseHostEntry("cdn.example.com:8443")).toEqual({
      hostname: "cdn.example.com",
      port: 8443,
    });
  });

  it("writes addresses the way URL does, so they compare equal", () => {
    expect(parseHostEntry("[0:0::1]:9000")).toEqual({ hostname: "[::1]", port: 9000 });
    expect(parseHostEntry("127.1")).toEqual({ hostname: "127.0.0.1" });
  });

  it("refuses a URL, a path, a wildcard, user info or a port out of range", () => {
    for (const entry of [
      "https://cdn.example.com",
      "cdn.example.com/files",
      "*.example.com",
      "user@cdn.example.com",
      "cdn.example.com:0",
      "cdn.example.com:65536",
      "cdn.example.com:",
    ])
      expect(parseHostEntry(entry), entry).toBeUndefined();
  });
});
