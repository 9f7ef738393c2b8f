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

// When things go wrong under an open popup: the backend stops and comes back (issue 11, item 13),
// the platform's callbacks are refused for a wrong secret (14), the platform's result link has
// expired when the person downloads (17).

describeInChromium("the extension when things go wrong (Chromium)", (chromiumPath) => {
  let stack: Stack;
  let browser: ExtensionBrowser;
  let popup: Page;
  let firstTask = "";
  const connection = (state: string) => popup.locator(`[data-connection="${state}"]`);

  beforeAll(async () => {
    stack = await startStack();
    browser = await launchExtension(chromiumPath, "en-US");
  });

  afterAll(async () => {
    await quietly(() => browser.close());
    await quietly(() => stack.close());
  });

  it("signs in and chooses the paid token", async () => {
    await (await useBackend(browser, stack.backendUrl)).close();
    popup = await browser.open("popup.html");
    await signIn(browser, popup, "approve");
    await popup.locator("form[aria-label=Compose]").waitFor();
    await popup.locator("#tab-account").click();
    await expect.poll(() => popup.locator(".token-list").textContent()).toContain("Paid");
    await chooseToken(popup, "Studio (paid)");
  });

  it("says Live while the event stream is open", async () => {
    await connection("live").waitFor({ timeout: 10_000 });
  });

  it("notices within seconds that the backend stopped, and keeps what it showed", async () => {
    firstTask = await submitPreset(popup, 0);
    await waitForStatus(popup, firstTask, "in_progress", 30_000);
    const stopped = Date.now();
    // Stopping drains for a while; the popup must notice while that runs.
    const stopping = stack.stopBackend();
    await connection("reconnecting").waitFor({ timeout: 10_000 });
    console.info(`[overture] backend stopped → "Reconnecting…" in ${Date.now() - stopped} ms`);
    await stopping;
    await popup.getByTestId("connection-lost").waitFor();
    expect(await popup.locator(`li.task[data-task-id="${firstTask}"]`).count()).toBe(1);
    await browser.shoot(popup, "connection-lost");
  });

  it("recovers by itself when the backend is back, and the task finishes", async () => {
    const started = Date.now();
    await stack.startBackend();
    await connection("live").waitFor({ timeout: 15_000 });
    console.info(`[overture] backend started → "Live" in ${Date.now() - started} ms`);
    expect(await popup.getByTestId("connection-lost").count()).toBe(0);
    await waitForStatus(popup, firstTask, "success");
    await browser.shoot(popup, "connection-recovered");
  });

  it("says callbacks are refused, and why, when the secret does not match", async () => {
    stack.emulator.control.setWebhookSecret("demo", WEBHOOK_SECRET);
    const options = await browser.open("options.html");
    await options.locator("#webhook-secret").fill("whsec-not-the-platforms");
    await options.locator("#webhook-secret").press("Enter");
    await expect
      .poll(() => options.getByTestId("webhook-status").textContent())
      .toContain("Live callbacks are on.");
    const refused = await submitPreset(popup, 1);
    const status = options.getByTestId("webhook-status");
    await expect
      .poll(
        async () => {
          await options.reload();
          // Settled once the recent deliveries were checked.
          await options
            .locator('[data-testid="webhook-status"]:not(:has-text("Checking"))')
            .waitFor();
          return status.textContent();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toContain("Callbacks for this account are being refused: the secret does not match.");
    expect(await status.textContent()).not.toContain("Live callbacks are on.");
    await browser.shoot(options, "settings-webhook-refused");

    await popup.reload();
    await popup.locator("#tab-tasks").click();
    const item = popup.locator(`li.task[data-task-id="${refused}"]`);
    await item.getByTestId("callback-refused").waitFor();
    await browser.shoot(popup, "tasks-callback-refused");

    await options.locator("#webhook-secret").fill(WEBHOOK_SECRET);
    await options.locator("#webhook-secret").press("Enter");
    await expect.poll(() => status.textContent()).toContain("Live callbacks are on.");
    await options.close();
  });

  it("saves the archived WAV and MP3 when the platform's link has expired", async () => {
    const item = popup.locator(`li.task[data-task-id="${firstTask}"]`);
    // The backend archives a result shortly after it succeeded; the list learns it on refresh.
    const archived = async () => {
      await popup.reload();
      await popup.locator("#tab-tasks").click();
      return browser.context.serviceWorkers()[0]?.evaluate(async (id) => {
        interface Row {
          id: string;
          audio_url: string | null;
        }
        interface Storage {
          get(key: string): Promise<{ snapshot: { tasks: Row[] } }>;
        }
        const api = (globalThis as unknown as { chrome: { storage: { local: Storage } } }).chrome;
        const { snapshot } = await api.storage.local.get("snapshot");
        return snapshot.tasks.find((t) => t.id === id)?.audio_url ?? null;
      }, firstTask);
    };
    await expect.poll(archived, { timeout: 60_000, interval: 2_000 }).toBeTruthy();
    // A day later on the platform: its signed links answer 410 Gone. An archived result is
    // downloaded from the archive (the platform is not even tried), in either format.
    await stack.emulator.control.clock.advance(25 * 3_600_000);
    for (const [button, mime] of [
      ["Download WAV", "audio/wav"],
      ["Download MP3", "audio/mpeg"],
    ] as const) {
      await chooseFromMenu(item, button);
      await expect
        .poll(() => item.getByTestId("download-state").textContent(), { timeout: 30_000 })
        .toBe("Saved to your downloads.");
      const saved = await browser.context.serviceWorkers()[0]?.evaluate(async () => {
        interface Item {
          url: string;
          mime: string;
          state: string;
        }
        const api = (
          globalThis as unknown as {
            chrome: { downloads: { search(query: object): Promise<Item[]> } };
          }
        ).chrome;
        const [last] = await api.downloads.search({ orderBy: ["-startTime"], limit: 1 });
        return last;
      });
      expect(saved?.state).toBe("complete");
      // From the backend's archive, in the format asked for. (Playwright saves downloads under
      // ids of its own, so the file name the extension gave is checked by the unit tests.)
      expect(saved?.url.startsWith(`${stack.backendUrl}/api/tasks/${firstTask}/audio`)).toBe(true);
      expect(saved?.mime).toBe(mime);
    }
    await browser.shoot(popup, "download-archived");
  });
});
