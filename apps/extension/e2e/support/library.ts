// Steps and checks the library and sharing suites share: a signed-in popup with live callbacks,
// the background's stored snapshot, and a backend call made with the extension's own session.
import { expect } from "vitest";
import type { Page } from "playwright-core";
import type { Task } from "../../src/lib/shared/types.ts";
import type { ExtensionBrowser } from "./browser.ts";
import { WEBHOOK_SECRET, chooseToken, signIn, useBackend } from "./flows.ts";
import type { Stack } from "./stack.ts";

/** Tasks finish in seconds: the library suites need several finished tracks, not a long wait. */
export const QUICK_TIMING = { waitingMs: 500, runningMs: 3_000, failureRate: 0 };

/** Settings page, sign-in, the paid token and live callbacks: a popup ready to compose. */
export async function signedInPopup(browser: ExtensionBrowser, stack: Stack): Promise<Page> {
  await (await useBackend(browser, stack.backendUrl)).close();
  const popup = await browser.open("popup.html");
  await signIn(browser, popup, "approve");
  await popup.locator("form").waitFor();
  await chooseToken(popup, "Studio (paid)");
  stack.emulator.control.setWebhookSecret("demo", WEBHOOK_SECRET);
  const options = await browser.open("options.html");
  await options.locator("#webhook-secret").fill(WEBHOOK_SECRET);
  await options.locator("#webhook-secret").press("Enter");
  // "ok": saved and no refused delivery (the same in every language).
  await options.locator('[data-testid="webhook-status"].ok').waitFor();
  await options.close();
  await popup.reload();
  return popup;
}

/** The background's stored snapshot of the task list (what every view renders first). */
export async function storedTasks(browser: ExtensionBrowser): Promise<Task[]> {
  const worker = browser.context.serviceWorkers()[0];
  if (!worker) throw new Error("the extension's service worker is not running");
  return worker.evaluate(async () => {
    interface Storage {
      get(key: string): Promise<{ snapshot?: { tasks: Task[] } }>;
    }
    const api = (globalThis as unknown as { chrome: { storage: { local: Storage } } }).chrome;
    const { snapshot } = await api.storage.local.get("snapshot");
    return snapshot?.tasks ?? [];
  });
}

/** A backend request with the extension's session (as the background would make it). */
export async function backendGet(
  browser: ExtensionBrowser,
  url: string,
): Promise<{ status: number; body: string }> {
  const worker = browser.context.serviceWorkers()[0];
  if (!worker) throw new Error("the extension's service worker is not running");
  return worker.evaluate(async (address) => {
    interface Storage {
      get(key: string): Promise<{ session?: { token: string } }>;
    }
    const api = (globalThis as unknown as { chrome: { storage: { local: Storage } } }).chrome;
    const { session } = await api.storage.local.get("session");
    // No HTTP cache: archived audio is cacheable, and the question is what the backend says now.
    const response = await fetch(address, {
      headers: { Authorization: `Bearer ${session?.token ?? ""}` },
      cache: "no-store",
    });
    return { status: response.status, body: await response.text() };
  }, url);
}

/** A backend POST of JSON with the extension's session (a task made without the form). */
export async function backendPost(
  browser: ExtensionBrowser,
  url: string,
  body: unknown,
): Promise<{ status: number; body: string }> {
  const worker = browser.context.serviceWorkers()[0];
  if (!worker) throw new Error("the extension's service worker is not running");
  return worker.evaluate(
    async ({ address, json }) => {
      interface Storage {
        get(key: string): Promise<{ session?: { token: string } }>;
      }
      const api = (globalThis as unknown as { chrome: { storage: { local: Storage } } }).chrome;
      const { session } = await api.storage.local.get("session");
      const response = await fetch(address, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${session?.token ?? ""}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify(json),
      });
      return { status: response.status, body: await response.text() };
    },
    { address: url, json: body },
  );
}

/** Waits until the backend has archived a task's result (its audio and peaks can be served). */
export async function waitForArchive(
  browser: ExtensionBrowser,
  stack: Stack,
  taskId: string,
): Promise<Task> {
  const read = async () => {
    const answer = await backendGet(browser, `${stack.backendUrl}/api/tasks/${taskId}`);
    return answer.status === 200 ? (JSON.parse(answer.body) as Task) : null;
  };
  await expect
    .poll(async () => (await read())?.archive?.status, { timeout: 60_000, interval: 500 })
    .toBe("archived");
  const task = await read();
  if (!task) throw new Error(`task ${taskId} was not found`);
  return task;
}

/** The titles the popup's list shows, top to bottom. */
export function listedTitles(popup: Page): Promise<string[]> {
  return popup.locator("li.task .title").allTextContents();
}
