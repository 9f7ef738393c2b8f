import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { type ExtensionBrowser, launchExtension } from "./support/browser.ts";
import { chooseFromMenu, submitPreset, waitForStatus } from "./support/flows.ts";
import {
  QUICK_TIMING,
  backendGet,
  listedTitles,
  signedInPopup,
  storedTasks,
  waitForArchive,
} from "./support/library.ts";
import { quietly, type Stack, startStack } from "./support/stack.ts";
import { describeInChromium } from "./support/suite.ts";

// The library as a person uses it in the popup: several finished tracks, searched, filtered,
// sorted, renamed, starred, opened in details, used again, deleted (undone once, then for real).
describeInChromium("the library in Chromium (English)", (chromiumPath) => {
  let stack: Stack;
  let browser: ExtensionBrowser;
  let popup: Page;
  // Preset 0 lo-fi, 1 orchestral, 2 Chinese rap (lyrics), 3 a cancelled orchestral.
  const ids: string[] = [];

  const bar = () => popup.locator(".library-bar");
  const search = (text: string) => bar().locator('input[type="search"]').fill(text);
  const item = (id: string) => popup.locator(`li.task[data-task-id="${id}"]`);
  const listedIds = () =>
    popup
      .locator("li.task")
      .evaluateAll((items) => items.map((li) => li.getAttribute("data-task-id")));

  beforeAll(async () => {
    stack = await startStack({ timing: QUICK_TIMING });
    browser = await launchExtension(chromiumPath, "en-US");
  });

  afterAll(async () => {
    await quietly(() => browser.close());
    await quietly(() => stack.close());
  });

  it("signs in with live callbacks on", async () => {
    popup = await signedInPopup(browser, stack);
  });

  it("finishes three tracks and cancels a fourth", async () => {
    for (const preset of [0, 1, 2]) ids.push(await submitPreset(popup, preset));
    for (const id of ids) await waitForStatus(popup, id, "success", 60_000);
    const cancelled = await submitPreset(popup, 1);
    await item(cancelled).locator("button.danger").click();
    await waitForStatus(popup, cancelled, "cancelled", 30_000);
    ids.push(cancelled);
  });

  it("finds tracks by title, prompt and lyrics", async () => {
    const [lofi, orchestral, rap] = ids as [string, string, string, string];
    await search("vinyl crackle");
    await expect.poll(listedIds).toEqual([lofi]);
    await search("霓虹灯");
    await expect.poll(listedIds).toEqual([rap]);
    await search("cinematic orchestral");
    await expect.poll(listedIds).toEqual([ids[3], orchestral]);
    await browser.shoot(popup, "library-search");
    await search("no such track anywhere");
    await expect.poll(() => popup.locator("li.task").count()).toBe(0);
    await search("");
    await expect.poll(() => popup.locator("li.task").count()).toBe(4);
  });

  it("filters by status", async () => {
    await bar().locator("select").first().selectOption("failed");
    await expect.poll(listedIds).toEqual([ids[3]]);
    await bar().locator("select").first().selectOption("success");
    await expect.poll(listedIds).toEqual([ids[2], ids[1], ids[0]]);
    await bar().locator("select").first().selectOption("all");
  });

  it("stars a track and filters the favourites", async () => {
    const star = item(ids[1] ?? "").locator("button.star");
    await star.click();
    await expect.poll(() => star.getAttribute("aria-pressed")).toBe("true");
    await bar().locator("select").first().selectOption("favourites");
    await expect.poll(listedIds).toEqual([ids[1]]);
    await browser.shoot(popup, "library-favourites");
    await bar().locator("select").first().selectOption("all");
  });

  it("renames a track: the new title is listed, found and kept after the popup reopens", async () => {
    const lofi = item(ids[0] ?? "");
    await chooseFromMenu(lofi, "Rename");
    const input = lofi.locator(".title-editor input");
    await input.fill("Rainy Window Beats");
    await input.press("Enter");
    await expect.poll(() => lofi.locator(".title").textContent()).toBe("Rainy Window Beats");
    await popup.close();
    popup = await browser.open("popup.html");
    await popup.locator("#tab-tasks").click();
    await expect
      .poll(() =>
        item(ids[0] ?? "")
          .locator(".title")
          .textContent(),
      )
      .toBe("Rainy Window Beats");
    await search("rainy window");
    await expect.poll(listedIds).toEqual([ids[0]]);
    const panel = await browser.open("sidepanel.html");
    await panel.locator("#tab-tasks").click();
    await expect
      .poll(() => panel.locator(`li.task[data-task-id="${ids[0]}"] .title`).textContent())
      .toBe("Rainy Window Beats");
    await panel.close();
    await search("");
  });

  it("sorts by title and oldest first", async () => {
    const sort = bar().locator("select").nth(1);
    await sort.selectOption("title");
    // Whatever the database's collation, "Chinese rap" comes before "Rainy" and "cinematic".
    await expect.poll(async () => (await listedTitles(popup))[0]).toMatch(/^Chinese rap/);
    await sort.selectOption("oldest");
    await expect.poll(listedIds).toEqual(ids);
    await browser.shoot(popup, "library-bar");
    await sort.selectOption("newest");
    await expect.poll(listedIds).toEqual([...ids].reverse());
  });

  it("shows a track's details: parameters, lyrics, durations, platform task id", async () => {
    const rap = item(ids[2] ?? "");
    await chooseFromMenu(rap, "Details");
    const details = rap.getByTestId("task-details");
    await details.locator("dl").first().waitFor();
    const text = (await details.textContent()) ?? "";
    const stored = (await storedTasks(browser)).find((task) => task.id === ids[2]);
    expect(stored?.platform_task_id).toBeTruthy();
    expect(text).toContain(stored?.platform_task_id ?? "-");
    // The LoRA in words, not the platform's name for it.
    const lora = details.locator("div", { has: popup.locator("dt", { hasText: /^LoRA$/ }) });
    expect(await lora.locator("dd").textContent()).toBe("Chinese rap");
    expect(text).not.toContain("ACE-Step-v1-chinese-rap-LoRA");
    expect(text).toContain("Chinese rap, hip hop");
    expect(await details.locator(".lyrics").textContent()).toContain("霓虹灯下我把节拍点亮");
    // Requested 60 s; the emulator makes at most 8 s (its maxAudioSeconds).
    expect(text).toMatch(/0:0\d \(1:00 asked for\)/);
    await browser.shoot(popup, "library-details");
    await popup.keyboard.press("Escape");
    await expect.poll(() => details.count()).toBe(0);
  });

  it("puts a track's settings into the compose form", async () => {
    const orchestral = item(ids[1] ?? "");
    await chooseFromMenu(orchestral, "Use these settings");
    await popup.locator("#tab-compose[aria-selected=true]").waitFor();
    await expect
      .poll(() => popup.locator("#field-prompt").inputValue())
      .toContain("cinematic orchestral");
    expect(await popup.locator("#field-duration").inputValue()).toBe("120");
    await popup.locator("#tab-tasks").click();
  });

  it("regenerates a track as a new task with the same parameters", async () => {
    const orchestral = item(ids[1] ?? "");
    await chooseFromMenu(orchestral, "Regenerate");
    await popup.getByTestId("notice").waitFor();
    await expect.poll(() => popup.locator("li.task").count()).toBe(5);
    const newest = await popup.locator("li.task").first().getAttribute("data-task-id");
    expect(ids).not.toContain(newest);
    const tasks = await storedTasks(browser);
    const copy = tasks.find((task) => task.id === newest);
    const original = tasks.find((task) => task.id === ids[1]);
    expect(copy?.params).toEqual(original?.params);
    await waitForStatus(popup, newest ?? "", "success", 60_000);
  });

  it("keeps a search current with changes made in the side panel", async () => {
    await search("cinematic orchestral");
    await expect.poll(() => popup.locator("li.task").count()).toBe(3);
    const panel = await browser.open("sidepanel.html");
    const made = await submitPreset(panel, 1);
    // A new task that matches the search joins the results, first (newest).
    await expect.poll(async () => (await listedIds())[0]).toBe(made);
    await panel.locator(`li.task[data-task-id="${made}"] button.danger`).click();
    await waitForStatus(panel, made, "cancelled", 30_000);
    const there = panel.locator(`li.task[data-task-id="${made}"]`);
    await chooseFromMenu(there, "Delete…");
    await there.getByTestId("confirm-delete").click();
    // Deleted elsewhere: it leaves the results shown here.
    await expect.poll(listedIds).not.toContain(made);
    expect(await popup.locator("li.task").count()).toBe(3);
    await panel.close();
    await search("");
  });

  it("deletes a track after asking, and undo brings it back", async () => {
    const rap = item(ids[2] ?? "");
    await chooseFromMenu(rap, "Delete…");
    await rap.getByTestId("confirm-delete").waitFor();
    await browser.shoot(popup, "library-delete-confirm");
    await rap.getByTestId("confirm-delete").click();
    await popup.getByTestId("undo-toast").waitFor();
    await expect.poll(() => rap.count()).toBe(0);
    await browser.shoot(popup, "library-deleted-undo");
    await popup.getByTestId("undo-toast").getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => rap.count()).toBe(1);
    await expect.poll(() => popup.getByTestId("undo-toast").count()).toBe(0);
  });

  it("deletes a track for real: gone after reopening, its audio gone from the backend", async () => {
    const rap = item(ids[2] ?? "");
    const audio = `${stack.backendUrl}/api/tasks/${ids[2]}/audio`;
    await waitForArchive(browser, stack, ids[2] ?? "");
    expect((await backendGet(browser, audio)).status).toBe(200);
    await chooseFromMenu(rap, "Delete…");
    await rap.getByTestId("confirm-delete").click();
    await popup.getByTestId("undo-toast").waitFor();
    // The undo window (10 s) passes.
    await popup.getByTestId("undo-toast").waitFor({ state: "detached", timeout: 20_000 });
    await popup.close();
    popup = await browser.open("popup.html");
    await popup.locator("#tab-tasks").click();
    await item(ids[0] ?? "").waitFor();
    expect(await item(ids[2] ?? "").count()).toBe(0);
    await expect
      .poll(async () => (await backendGet(browser, audio)).status, { timeout: 30_000 })
      .toBeOneOf([404, 410]);
  });
});
