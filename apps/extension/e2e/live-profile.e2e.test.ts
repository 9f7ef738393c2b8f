import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { type ExtensionBrowser, launchExtension } from "./support/browser.ts";
import {
  chooseFromMenu,
  WEBHOOK_SECRET,
  chooseToken,
  signIn,
  submitPreset,
  useBackend,
  waitForStatus,
} from "./support/flows.ts";
import { quietly, type Stack, startStack } from "./support/stack.ts";
import { describeInChromium } from "./support/suite.ts";

/**
 * The extension's main flow against the emulator answering as the live platform is known to
 * (docs/platform-facts.md): 32-character uppercase task ids, millisecond timestamps, `output.url`
 * instead of `output.file_url`, 7-day result links, `usage_info: null`.
 */
describeInChromium("the extension against the live-shaped platform (Chromium)", (chromiumPath) => {
  let stack: Stack;
  let browser: ExtensionBrowser;
  let popup: Page;

  beforeAll(async () => {
    stack = await startStack({ profile: "live" });
    browser = await launchExtension(chromiumPath, "en-US");
  });

  afterAll(async () => {
    await quietly(() => browser.close());
    await quietly(() => stack.close());
  });

  it("signs in, turns callbacks on, and plays a result reported in live shapes", async () => {
    const options = await useBackend(browser, stack.backendUrl);
    popup = await browser.open("popup.html");
    await signIn(browser, popup, "approve");
    await popup.locator("form").waitFor();
    await chooseToken(popup, "Studio (paid)");
    stack.emulator.control.setWebhookSecret("demo", WEBHOOK_SECRET);
    await options.reload();
    await options.locator("#webhook-secret").fill(WEBHOOK_SECRET);
    await options.locator("#webhook-secret").press("Enter");
    await expect
      .poll(() => options.getByTestId("webhook-status").textContent())
      .toContain("Live callbacks are on.");
    await options.close();
    const taskId = await submitPreset(popup, 0);
    await waitForStatus(popup, taskId, "success");

    const platformIds = stack.emulator.control.listTasks().map((task) => task.task_id);
    expect(platformIds.every((id) => /^[0-9A-Z]{32}$/.test(id))).toBe(true);
    const item = popup.locator(`li.task[data-task-id="${taskId}"]`);
    await item.getByTestId("play").click();
    await popup.locator('.mini-player canvas[data-state="drawn"]').waitFor();
    // The live platform's links last 7 days, and the extension reads that from the link (said
    // in the details, the one place the platform's own link is offered).
    await chooseFromMenu(item, "Details");
    await expect
      .poll(() => item.getByTestId("link-expiry").textContent())
      .toMatch(/^Link expires in 16[78] h$/);
    const deliveries = stack.emulator.control.listDeliveries();
    expect(deliveries.some((d) => d.state === "succeeded")).toBe(true);
  });
});
