import { describe, expect, it } from "vitest";
import { useLocale } from "../../testing/setup.ts";
import { describeUserAgent } from "./user-agent.ts";
import { deviceName } from "./texts.ts";

const UA = {
  chromeLinux:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
  headlessLinux:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.7390.54 Safari/537.36",
  firefoxWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
  operaWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
  chromeMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  firefoxMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0",
  safariMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
  firefoxAndroid: "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  chromeOs:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  samsung:
    "Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
};

describe("device names from user agents", () => {
  it.each([
    [UA.chromeLinux, "Chrome 156 on Linux"],
    [UA.headlessLinux, "Chrome 156 on Linux"],
    [UA.firefoxWindows, "Firefox 128 on Windows"],
    [UA.edgeWindows, "Edge 131 on Windows"],
    [UA.operaWindows, "Opera 115 on Windows"],
    [UA.chromeMac, "Chrome 130 on macOS"],
    [UA.firefoxMac, "Firefox 128 on macOS"],
    [UA.safariMac, "Safari 17 on macOS"],
    [UA.chromeAndroid, "Chrome 130 on Android"],
    [UA.firefoxAndroid, "Firefox 128 on Android"],
    [UA.safariIphone, "Safari 17 on iOS"],
    [UA.chromeOs, "Chrome 130 on ChromeOS"],
    [UA.samsung, "Samsung Internet 25 on Android"],
  ])("names %s", (ua, name) => {
    expect(deviceName(ua)).toBe(name);
  });

  it("names the system alone when the browser is unknown", () => {
    expect(deviceName("SomeAgent/2.1 (X11; Linux x86_64)")).toBe("A browser on Linux");
  });

  it("says unknown browser when nothing is recognised", () => {
    expect(deviceName("curl/8.5.0")).toBe("Unknown browser");
    expect(deviceName(null)).toBe("Unknown browser");
    expect(deviceName("")).toBe("Unknown browser");
  });

  it("names a browser without a system", () => {
    expect(describeUserAgent("Firefox/128.0")).toEqual({
      browser: "Firefox",
      version: "128",
      os: null,
    });
  });

  it("puts the system first in Chinese", async () => {
    await useLocale("zh_CN");
    expect(deviceName(UA.chromeLinux)).toBe("Linux 上的 Chrome 156");
    expect(deviceName("SomeAgent/2.1 (Windows NT 10.0)")).toBe("Windows 上的浏览器");
    expect(deviceName(null)).toBe("未知浏览器");
  });
});
