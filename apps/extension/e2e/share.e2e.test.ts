import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Browser, type Page, chromium } from "playwright-core";
import type { Task } from "../src/lib/shared/types.ts";
import { type ExtensionBrowser, launchExtension } from "./support/browser.ts";
import { chooseFromMenu, submitPreset, waitForStatus } from "./support/flows.ts";
import { QUICK_TIMING, signedInPopup, waitForArchive } from "./support/library.ts";
import { quietly, type Stack, startStack } from "./support/stack.ts";
import { describeInChromium } from "./support/suite.ts";

// Sharing as a person does it: a link made in the extension's share panel, opened by someone
// else in a plain Chromium with an empty profile (no extension, no session), then revoked.
describeInChromium("share links in Chromium (English)", (chromiumPath) => {
  let stack: Stack;
  let browser: ExtensionBrowser;
  let popup: Page;
  // Someone else's browser: launched without the extension, each page in a new empty context.
  let stranger: Browser;
  let track: Task;
  let plainLink = "";

  const panel = () => popup.getByTestId("share-panel");
  const item = () => popup.locator(`li.task[data-task-id="${track.id}"]`);

  /** Creates a link from the open share panel; answers the address shown once. */
  async function createLink(expiry: string, includeText: boolean): Promise<string> {
    await panel().locator("select").selectOption(expiry);
    await panel().getByRole("checkbox").setChecked(includeText);
    const before = await panel().locator("li[data-share-id]").count();
    await panel()
      .getByRole("button", { name: /^Create link:/ })
      .click();
    await expect.poll(() => panel().locator("li[data-share-id]").count()).toBe(before + 1);
    const link = (await panel().getByTestId("share-url").textContent()) ?? "";
    expect(link).toMatch(new RegExp(`^${stack.backendUrl}/s/[A-Za-z0-9_-]{20,}$`));
    return link;
  }

  /** Opens a link as a visitor: a fresh context, no cookies, no storage, no extension. */
  async function visit(link: string) {
    const context = await stranger.newContext({ acceptDownloads: true, locale: "en-US" });
    const page = await context.newPage();
    const response = await page.goto(link);
    if (!response) throw new Error(`no answer for ${link}`);
    return {
      page,
      status: response.status(),
      html: await response.text(),
      close: () => context.close(),
    };
  }

  beforeAll(async () => {
    stack = await startStack({ timing: QUICK_TIMING });
    browser = await launchExtension(chromiumPath, "en-US");
    stranger = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"],
    });
  });

  afterAll(async () => {
    await quietly(() => stranger.close());
    await quietly(() => browser.close());
    await quietly(() => stack.close());
  });

  it("signs in and makes a track with lyrics", async () => {
    popup = await signedInPopup(browser, stack);
    const id = await submitPreset(popup, 2);
    await waitForStatus(popup, id, "success", 60_000);
    track = await waitForArchive(browser, stack, id);
  });

  it("creates a 1-day link without the text and shows it once", async () => {
    await chooseFromMenu(item(), "Share…");
    plainLink = await createLink("1d", false);
    const listed = panel().locator("li[data-share-id]");
    expect(await listed.textContent()).toMatch(/^Active until /);
    expect(await listed.textContent()).not.toContain("with prompt and lyrics");
    await browser.shoot(popup, "share-panel");
    // Shown once: the panel opened again lists the link but no longer shows its address.
    await popup.keyboard.press("Escape");
    await expect.poll(() => panel().count()).toBe(0);
    await chooseFromMenu(item(), "Share…");
    await expect.poll(() => panel().locator("li[data-share-id]").count()).toBe(1);
    expect(await panel().getByTestId("share-url").count()).toBe(0);
  });

  it("shows a visitor the title, the waveform, a player that plays and a working download", async () => {
    const visitor = await visit(plainLink);
    const { page } = visitor;
    expect(visitor.status).toBe(200);
    // Never renamed, the title is the prompt's first line: this link hides it.
    expect(await page.locator("h1").textContent()).toBe("Shared track");
    expect(await page.locator("svg path").getAttribute("d")).toMatch(/^M0\.5 /);
    const audio = page.locator("audio");
    await audio.evaluate((a: HTMLAudioElement) => a.play());
    await expect
      .poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime))
      .toBeGreaterThan(0);
    expect(await audio.evaluate((a: HTMLAudioElement) => a.error)).toBeNull();
    await browser.shoot(page, "share-public");

    const download = page.waitForEvent("download");
    await page.locator("a.download").click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("Shared track.mp3");
    const bytes = await readFile(await file.path());
    expect(bytes.length).toBeGreaterThan(1_000);
    // An MP3 opens with an ID3 tag or a frame sync.
    expect(bytes.subarray(0, 3).toString() === "ID3" || bytes[0] === 0xff).toBe(true);
    await visitor.close();
  });

  it("keeps the prompt, lyrics, owner, ids and platform links off the page", async () => {
    const visitor = await visit(plainLink);
    // The waveform is numbers only: left out, so that no id is "found" among its coordinates.
    const html = visitor.html.replace(/<svg[\s\S]*<\/svg>/, "");
    const text = (key: string) => {
      const value = track.params[key];
      return typeof value === "string" ? value : "";
    };
    const [prompt, lyrics] = [text("prompt"), text("lyrics")];
    expect(prompt.length * lyrics.length).toBeGreaterThan(0);
    for (const secret of [
      prompt,
      prompt.slice(0, 20),
      lyrics.split("\n")[1] ?? lyrics,
      track.id,
      track.platform_task_id ?? "-",
      track.file_url ?? "-",
      stack.emulator.url,
      "Demo Listener",
      ">demo<",
    ])
      expect(html).not.toContain(secret);
    await visitor.close();
  });

  it("shows the prompt and lyrics on a link made with the text included", async () => {
    const withText = await createLink("never", true);
    expect(await panel().locator("li[data-share-id]").first().textContent()).toContain(
      "with prompt and lyrics",
    );
    const visitor = await visit(withText);
    expect(visitor.status).toBe(200);
    expect(await visitor.page.locator("h1").textContent()).toBe(track.title);
    expect(visitor.html).toContain("Chinese rap, hip hop");
    expect(await visitor.page.locator("pre").textContent()).toContain("霓虹灯下我把节拍点亮");
    await browser.shoot(visitor.page, "share-public-with-text");
    await visitor.close();
  });

  it("revokes a link: the visitor then gets the gone page and no audio", async () => {
    const plain = panel()
      .locator("li[data-share-id]")
      .filter({ hasNotText: "with prompt and lyrics" });
    await plain.getByRole("button", { name: /^Revoke:/ }).click();
    await expect.poll(() => plain.textContent()).toContain("Revoked");
    expect(await plain.getByRole("button").count()).toBe(0);
    await browser.shoot(popup, "share-panel-revoked");
    const visitor = await visit(plainLink);
    expect([404, 410]).toContain(visitor.status);
    expect(await visitor.page.locator("h1").textContent()).toBe("Not available");
    expect(visitor.html).not.toContain(track.title);
    const audio = await visitor.page.request.get(`${plainLink}/audio`);
    expect([404, 410]).toContain(audio.status());
    await browser.shoot(visitor.page, "share-public-gone");
    await visitor.close();
  });
});
