// Steps a person takes, shared by the English and the Chinese runs. Selectors are structural
// (ids, roles, data attributes), so the same steps work in both languages.
import { expect } from "vitest";
import type { Locator, Page } from "playwright-core";
import type { ExtensionBrowser } from "./browser.ts";

export const WEBHOOK_SECRET = "whsec-e2e-0123456789";

/** Sets the backend address on the settings page (127.0.0.1 is granted at install: no prompt). */
export async function useBackend(browser: ExtensionBrowser, backendUrl: string): Promise<Page> {
  const options = await browser.open("options.html");
  const input = options.locator("#backend-url");
  await expect.poll(() => input.inputValue()).toBe("http://127.0.0.1:8787");
  await input.fill(backendUrl);
  await options.locator("#backend-url").press("Enter");
  await options.locator('span[role="status"]').waitFor();
  return options;
}

/** Clicks the sign-in button and answers the platform's consent page. */
export async function signIn(
  browser: ExtensionBrowser,
  popup: Page,
  decision: "approve" | "deny",
): Promise<void> {
  const consent = browser.context.waitForEvent("page");
  await popup.locator("section.state button.primary").click();
  const page = await consent;
  await page.locator(`button[value="${decision}"]`).click();
}

/** Chooses an access token by name in the personal namespace. */
export async function chooseToken(popup: Page, name: string): Promise<void> {
  await popup.locator("#tab-account").click();
  await popup.locator(`.token-list label:has-text("${name}") input`).check();
  await popup.getByTestId("use-token").click();
  await expect.poll(() => popup.getByTestId("selection").textContent()).toContain(name);
}

/** Fills the compose form from a preset and submits it; answers the new task's id. */
export async function submitPreset(popup: Page, preset: number): Promise<string> {
  await popup.locator("#tab-compose").click();
  await popup.locator("fieldset button[aria-pressed]").nth(preset).click();
  const before = await popup.evaluate(() => document.querySelectorAll("li.task").length);
  await popup.locator('form button[type="submit"]').click();
  await popup.locator("#tab-tasks[aria-selected=true]").waitFor();
  await expect.poll(() => popup.locator("li.task").count()).toBeGreaterThan(before);
  const id = await popup.locator("li.task").first().getAttribute("data-task-id");
  if (!id) throw new Error("the new task has no id");
  return id;
}

/** Waits until a task shows `status` in the list. */
export async function waitForStatus(
  popup: Page,
  taskId: string,
  status: string,
  timeout = 90_000,
): Promise<void> {
  await popup
    .locator(`li.task[data-task-id="${taskId}"][data-status="${status}"]`)
    .waitFor({ timeout });
}

/** Opens a track's "⋯" menu and chooses the item named `item` (its visible words). */
export async function chooseFromMenu(row: Locator, item: string | RegExp): Promise<void> {
  await row.getByTestId("more").click();
  await row.getByRole("menuitem", { name: item }).click();
}
