import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { type ExtensionBrowser, findChromium, launchExtension } from "./support/browser.ts";
import {
  chooseFromMenu,
  WEBHOOK_SECRET,
  chooseToken,
  signIn,
  submitPreset,
  useBackend,
  waitForStatus,
} from "./support/flows.ts";
import { waitForArchive } from "./support/library.ts";
import { quietly, type Stack, startStack } from "./support/stack.ts";

// The same screens for a browser whose language is Simplified Chinese (`--lang=zh-CN`).
const chromium = findChromium();
const skip =
  "missing" in chromium && process.env.OVERTURE_SKIP_BROWSER === "1" ? chromium.missing : null;
const suite = skip ? describe.skip : describe;

// Without a CJK font the screenshots show boxes (the text itself is still checked).
function hasChineseFont(): boolean {
  try {
    return execFileSync("fc-list", [":lang=zh"], { encoding: "utf8" }).trim() !== "";
  } catch {
    return false;
  }
}
if (!skip && !hasChineseFont())
  console.warn(
    "[overture] no Chinese font (e.g. apt-get install -y fonts-wqy-microhei): zh-CN screenshots will show boxes",
  );

suite(
  skip
    ? `the extension in Chinese — skipped: ${skip}`
    : "the extension in Chromium (Simplified Chinese)",
  () => {
    let stack: Stack;
    let browser: ExtensionBrowser;
    let popup: Page;
    let rap = "";

    beforeAll(async () => {
      if ("missing" in chromium)
        throw new Error(
          `The browser tests need Chromium: ${chromium.missing}. Set OVERTURE_SKIP_BROWSER=1 to skip them.`,
        );
      stack = await startStack();
      browser = await launchExtension(chromium.path, "zh-CN");
    });

    afterAll(async () => {
      await quietly(() => browser.close());
      await quietly(() => stack.close());
    });

    it("shows the settings page in Chinese", async () => {
      const options = await useBackend(browser, stack.backendUrl);
      expect(await options.locator("h1").textContent()).toBe("Overture 设置");
      await browser.shoot(options, "settings");
      await options.close();
    });

    it("shows the signed-out screen in Chinese", async () => {
      popup = await browser.open("popup.html");
      await popup.getByRole("heading", { name: "登录后即可开始创作音乐" }).waitFor();
      expect(await popup.evaluate(() => document.documentElement.lang)).toMatch(/^zh/);
      await browser.shoot(popup, "signed-out");
    });

    it("explains a denied consent in Chinese", async () => {
      await signIn(browser, popup, "deny");
      await expect.poll(() => popup.locator("[data-problem]").textContent()).toContain("拒绝");
      await browser.shoot(popup, "sign-in-denied");
    });

    it("signs in and chooses the paid token, labelled 付费版", async () => {
      await signIn(browser, popup, "approve");
      await popup.locator("form").waitFor();
      await popup.locator("#tab-account").click();
      await expect.poll(() => popup.locator(".token-list").textContent()).toContain("付费版");
      await chooseToken(popup, "Studio (paid)");
      await browser.shoot(popup, "account");
    });

    it("says live callbacks are on after the webhook secret is saved", async () => {
      stack.emulator.control.setWebhookSecret("demo", WEBHOOK_SECRET);
      const options = await browser.open("options.html");
      await options.locator("#webhook-secret").fill(WEBHOOK_SECRET);
      await options.locator("#webhook-secret").press("Enter");
      await expect
        .poll(() => options.getByTestId("webhook-status").textContent())
        .toContain("实时回调已开启");
      await browser.shoot(options, "settings-webhook");
      await options.close();
    });

    it("shows validation messages in Chinese", async () => {
      await popup.reload();
      await popup.locator("#tab-compose").click();
      await popup.locator("#field-duration").fill("999");
      await popup.locator("#field-duration").blur();
      expect(await popup.locator("#field-duration-error").textContent()).toBe(
        "请输入 30 至 240 之间的值。",
      );
      await popup.locator("details.advanced summary").click();
      await browser.shoot(popup, "compose-invalid");
      await popup.locator("details.advanced summary").click();
      await popup.locator("fieldset button[aria-pressed]").nth(2).click();
      expect(await popup.getByTestId("lyric-tags").textContent()).toContain("verse");
      await browser.shoot(popup, "compose");
    });

    it("submits the Chinese rap preset and shows the finished track", async () => {
      const task = await submitPreset(popup, 2);
      rap = task;
      await browser.shoot(popup, "tasks-live");
      await waitForStatus(popup, task, "success");
      const item = popup.locator(`li.task[data-task-id="${task}"]`);
      expect(await item.getAttribute("data-status")).toBe("success");
      expect(await item.getByTestId("play").getAttribute("aria-label")).toMatch(/^播放：/);
      await item.getByTestId("play").click();
      await popup.locator('.mini-player canvas[data-state="drawn"]').waitFor();
      await browser.shoot(popup, "result");
    });

    it("shows the library bar and a track's details in Chinese", async () => {
      // The player bar would cover the list in the screenshots.
      await popup.getByRole("button", { name: "关闭播放器" }).click();
      const bar = popup.locator(".library-bar");
      const search = bar.locator('input[type="search"]');
      expect(await search.getAttribute("aria-label")).toBe("搜索标题、提示词和歌词");
      expect(await search.getAttribute("placeholder")).toBe("搜索");
      expect(await bar.locator("select").first().locator("option").allTextContents()).toEqual([
        "全部曲目",
        "收藏",
        "进行中",
        "已完成",
        "失败或已取消",
      ]);
      expect(await bar.locator("select").nth(1).locator("option").allTextContents()).toEqual([
        "最新在前",
        "最早在前",
        "按标题",
      ]);
      await search.fill("霓虹灯");
      await expect
        .poll(() => popup.locator("li.task").evaluateAll((li) => li.map((e) => e.dataset.taskId)))
        .toEqual([rap]);
      await browser.shoot(popup, "library-bar");
      await search.fill("没有这样的歌");
      await popup.getByText("没有匹配的曲目。").waitFor();
      await search.fill("");
      const item = popup.locator(`li.task[data-task-id="${rap}"]`);
      await chooseFromMenu(item, "详情");
      const details = item.getByTestId("task-details");
      await details.locator("dl").first().waitFor();
      expect(await details.textContent()).toContain("平台任务 ID");
      expect(await details.getByRole("button", { name: "使用这些设置" }).count()).toBe(1);
      await browser.shoot(popup, "library-details");
      await item.getByRole("button", { name: "关闭" }).click();
      await expect.poll(() => details.count()).toBe(0);
    });

    it("makes and revokes a share link from the share panel in Chinese", async () => {
      await waitForArchive(browser, stack, rap);
      const item = popup.locator(`li.task[data-task-id="${rap}"]`);
      await chooseFromMenu(item, "分享…");
      const panel = item.getByTestId("share-panel");
      expect(await panel.locator("select option").allTextContents()).toEqual([
        "1 天",
        "7 天",
        "30 天",
        "永不过期",
      ]);
      expect(await panel.locator("label.check").textContent()).toBe("显示提示词和歌词");
      await panel.locator("select").selectOption("30d");
      await panel.getByRole("button", { name: "创建链接" }).click();
      const listed = panel.locator("li[data-share-id]");
      await expect.poll(() => listed.textContent()).toMatch(/^有效期至 /);
      expect(await panel.getByTestId("share-url").textContent()).toMatch(
        new RegExp(`^${stack.backendUrl}/s/`),
      );
      await browser.shoot(popup, "share-panel");
      await listed.getByRole("button", { name: "撤销" }).click();
      await expect.poll(() => listed.textContent()).toBe("已撤销");
      await popup.keyboard.press("Escape");
    });

    it("asks to sign in again, in Chinese, after the authorization is revoked", async () => {
      stack.emulator.control.revokeAuthorization({ clientId: "overture-local", login: "demo" });
      await popup.reload();
      await popup.getByRole("heading", { name: "授权已被撤销" }).waitFor({ timeout: 30_000 });
      await browser.shoot(popup, "authorization-revoked");
    });

    it("shows the unreachable screen in Chinese", async () => {
      await stack.stopBackend();
      await popup.reload();
      await popup
        .getByRole("heading", { name: "无法连接 Overture 后端" })
        .waitFor({ timeout: 30_000 });
      await browser.shoot(popup, "backend-unreachable");
    });
  },
);
