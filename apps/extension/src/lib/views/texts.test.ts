import { describe, expect, it } from "vitest";
import { useLocale } from "../../testing/setup.ts";
import { OvertureError } from "../shared/errors.ts";
import { errorText } from "./texts.ts";

const limited = (retryAfterSeconds?: number) =>
  new OvertureError("rate_limited", "x", {
    status: 429,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });

describe("error sentences", () => {
  it("says when to try again after a rate-limited answer that gave a wait", () => {
    expect(errorText(limited(30))).toBe(
      "Too many requests from this address. Try again in 30 seconds.",
    );
  });

  it("says when to try again after a rate-limited answer, in Chinese", async () => {
    await useLocale("zh_CN");
    expect(errorText(limited(30))).toContain("30");
    expect(errorText(limited(30))).toMatch(/^来自该地址的请求过多，请在.*30.*后再试。$/);
  });

  it("asks to wait a little after a rate-limited answer that gave no wait", () => {
    expect(errorText(limited())).toBe(
      "Too many requests from this address. Wait a little, then try again.",
    );
  });

  it("says the backend is restarting, not that the platform is unavailable, when it drains", async () => {
    const draining = new OvertureError("shutting_down", "x", { status: 503 });
    expect(errorText(draining)).toBe("The backend is restarting. Try again in a moment.");
    await useLocale("zh_CN");
    expect(errorText(draining)).toBe("后端正在重启，请稍后再试。");
  });

  it("says the archive space is full when the quota refused a copy", async () => {
    const full = new OvertureError("archive_quota_exceeded", "x");
    expect(errorText(full)).toMatch(
      /^This track was not archived: your space on the backend is full\./,
    );
    await useLocale("zh_CN");
    expect(errorText(full)).toMatch(/^该曲目未能存档：你在后端的存储空间已满。/);
  });
});
