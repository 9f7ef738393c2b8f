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
import { EXTENSION_ID, quietly, type Stack, startStack } from "./support/stack.ts";

const chromium = findChromium();
const skip =
  "missing" in chromium && process.env.OVERTURE_SKIP_BROWSER === "1" ? chromium.missing : null;
if (skip) console.warn(`[overture] browser tests skipped: ${skip}`);
const suite = skip ? describe.skip : describe;

suite(
  skip ? `the extension in Chromium — skipped: ${skip}` : "the extension in Chromium (English)",
  () => {
    let stack: Stack;
    let browser: ExtensionBrowser;
    let popup: Page;
    let firstTask = "";

    beforeAll(async () => {
      if ("missing" in chromium)
        throw new Error(
          `The browser tests need Chromium: ${chromium.missing}. Set OVERTURE_SKIP_BROWSER=1 to skip them.`,
        );
      stack = await startStack();
      browser = await launchExtension(chromium.path, "en-US");
    });

    afterAll(async () => {
      await quietly(() => browser.close());
      await quietly(() => stack.close());
    });

    it("loads with the fixed extension id the backend allows", () => {
      expect(browser.extensionId).toBe(EXTENSION_ID);
    });

    it("points the extension at the backend from the settings page", async () => {
      const options = await useBackend(browser, stack.backendUrl);
      expect(await options.locator('span[role="status"]').textContent()).toBe("Saved.");
      expect(await options.getByTestId("redirect-chrome").textContent()).toBe(
        `https://${EXTENSION_ID}.chromiumapp.org/`,
      );
      await browser.shoot(options, "settings");
      await options.close();
    });

    it("shows the signed-out screen", async () => {
      popup = await browser.open("popup.html");
      await popup.getByRole("heading", { name: "Sign in to start making music" }).waitFor();
      await browser.shoot(popup, "signed-out");
    });

    it("explains a denied consent", async () => {
      await signIn(browser, popup, "deny");
      await expect.poll(() => popup.locator("[data-problem]").textContent()).toContain("declined");
      await browser.shoot(popup, "sign-in-denied");
    });

    it("signs in by approving on the platform's consent page", async () => {
      await signIn(browser, popup, "approve");
      await popup.locator("form[aria-label=Compose]").waitFor();
      await popup.locator("#tab-account").click();
      await expect.poll(() => popup.getByTestId("user").textContent()).toContain("Demo Listener");
    });

    it("chooses the paid access token, shown as paid", async () => {
      await expect.poll(() => popup.locator(".token-list").textContent()).toContain("Paid");
      await chooseToken(popup, "Studio (paid)");
      await browser.shoot(popup, "account");
    });

    it("turns live callbacks on with the account's webhook secret", async () => {
      stack.emulator.control.setWebhookSecret("demo", WEBHOOK_SECRET);
      const options = await browser.open("options.html");
      await options.locator("#webhook-secret").fill(WEBHOOK_SECRET);
      await options.locator("#webhook-secret").press("Enter");
      await expect
        .poll(() => options.getByTestId("webhook-status").textContent())
        .toContain("Live callbacks are on.");
      expect(await options.locator("#webhook-secret").inputValue()).toBe("");
      await browser.shoot(options, "settings-webhook");
      await options.close();
    });

    it("shows inline validation messages in the compose form", async () => {
      await popup.reload();
      await popup.locator("#tab-compose").click();
      await popup.locator("#field-duration").fill("999");
      await popup.locator("#field-duration").blur();
      expect(await popup.locator("#field-duration-error").textContent()).toBe(
        "Enter a value from 30 to 240.",
      );
      await popup.locator("details.advanced summary").click();
      await browser.shoot(popup, "compose-invalid");
      await popup.locator("details.advanced summary").click();
      await popup.locator("fieldset button[aria-pressed]").first().click();
      await browser.shoot(popup, "compose");
    });

    it("submits a task and watches it reach success through the webhook", async () => {
      firstTask = await submitPreset(popup, 0);
      await browser.shoot(popup, "tasks-live");
      await waitForStatus(popup, firstTask, "success");
      const platformId = await browser.context.serviceWorkers()[0]?.evaluate(async (id) => {
        interface Row {
          id: string;
          platform_task_id: string;
          webhook_expected: boolean;
        }
        interface Storage {
          get(key: string): Promise<{ snapshot: { tasks: Row[] } }>;
        }
        const api = (globalThis as unknown as { chrome: { storage: { local: Storage } } }).chrome;
        const { snapshot } = await api.storage.local.get("snapshot");
        const task = snapshot.tasks.find((t) => t.id === id);
        return task?.webhook_expected ? task.platform_task_id : null;
      }, firstTask);
      expect(platformId).toBeTruthy();
      const deliveries = stack.emulator.control.listDeliveries({ taskId: platformId ?? "" });
      expect(deliveries.some((d) => d.state === "succeeded")).toBe(true);
    });

    it("draws the archived track's waveform from its peaks, no audio until play", async () => {
      // The side panel shows each row's waveform inline (the popup keeps to one line per track).
      const panel = await browser.open("sidepanel.html");
      const row = panel.locator(`li.task[data-task-id="${firstTask}"]`);
      const drawn = row.locator('[data-testid="card-waveform"] canvas[data-state="drawn"]');
      // The backend archives a result shortly after it succeeded; the list learns it on refresh.
      await expect
        .poll(
          async () => {
            await panel.reload();
            await row.waitFor();
            await drawn.waitFor({ timeout: 1_500 }).catch(() => undefined);
            return drawn.count();
          },
          { timeout: 60_000, interval: 1_000 },
        )
        .toBe(1);
      await panel.close();
      await popup.reload();
      const item = popup.locator(`li.task[data-task-id="${firstTask}"]`);
      await item.waitFor();
      // The list holds no audio element: one player, created by Play.
      expect(await popup.locator("audio").count()).toBe(0);
      await item.getByTestId("more").click();
      expect(
        await item.getByRole("menuitem", { name: "Download MP3" }).getAttribute("aria-disabled"),
      ).toBeNull();
      await popup.keyboard.press("Escape");
    });

    it("plays the archived MP3 streamed from the backend, and seeks from the waveform", async () => {
      const item = popup.locator(`li.task[data-task-id="${firstTask}"]`);
      const media: number[] = [];
      popup.on("response", (response) => {
        if (response.url().startsWith(`${stack.backendUrl}/media/`)) media.push(response.status());
      });
      await item.getByTestId("play").click();
      const bar = popup.locator(".mini-player[data-state=ready]");
      await bar.waitFor();
      expect(await bar.getAttribute("data-mode")).toBe("stream");
      await bar.locator('[data-testid="player-waveform"] canvas[data-state="drawn"]').waitFor();
      const audio = bar.locator("audio");
      // A media link: the <audio> element loads it itself, with Range requests.
      expect(await audio.evaluate((a: HTMLAudioElement) => a.src)).toMatch(
        new RegExp(`^${stack.backendUrl}/media/`),
      );
      // Playing without another click: the press on Play was the request to play.
      await expect
        .poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime))
        .toBeGreaterThan(0);
      expect(await bar.getByTestId("player-toggle").getAttribute("aria-label")).toMatch(/^Pause: /);
      expect(media).toContain(206);

      // Seeks to three quarters where the player's waveform is clicked; the playhead follows.
      const waveform = bar.getByTestId("player-waveform");
      const box = await waveform.boundingBox();
      if (!box) throw new Error("the player's waveform has no box");
      await waveform.click({ position: { x: box.width * 0.75, y: box.height / 2 } });
      await expect
        .poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime / a.duration))
        .toBeGreaterThanOrEqual(0.7);
      expect(Number(await waveform.getAttribute("aria-valuenow"))).toBeGreaterThanOrEqual(70);
      expect(await popup.locator("audio").count()).toBe(1);
      // No native controls: the bar is the player.
      expect(await audio.evaluate((a: HTMLAudioElement) => a.controls)).toBe(false);
      await browser.shoot(popup, "result");
      // The platform's own link is offered only in the details, saying when it expires.
      await chooseFromMenu(item, "Details");
      await expect
        .poll(() => item.getByTestId("link-expiry").textContent())
        .toMatch(/^Link expires in 2[34] h$/);
      await popup.keyboard.press("Escape");
    });

    it("cancels a second task", async () => {
      const second = await submitPreset(popup, 1);
      await popup.locator(`li.task[data-task-id="${second}"] button.danger`).click();
      await waitForStatus(popup, second, "cancelled", 30_000);
      await browser.shoot(popup, "tasks-cancelled");
    });

    it("shows the same app in the side panel", async () => {
      const panel = await browser.open("sidepanel.html");
      await panel.locator("#tab-tasks").click();
      await panel.locator(`li.task[data-task-id="${firstTask}"]`).waitFor();
      await browser.shoot(panel, "side-panel");
      await panel.close();
    });

    it("shows the offline banner with the last known state when the network is down", async () => {
      await browser.context.setOffline(true);
      await popup.reload();
      await popup.locator('[data-screen="offline"]').waitFor();
      await browser.shoot(popup, "offline");
      await browser.context.setOffline(false);
    });

    it("asks to sign in again after the authorization is revoked on the platform", async () => {
      expect(
        stack.emulator.control.revokeAuthorization({ clientId: "overture-local", login: "demo" }),
      ).toBeGreaterThan(0);
      await popup.reload();
      await popup
        .getByRole("heading", { name: "Authorization was revoked" })
        .waitFor({ timeout: 30_000 });
      await browser.shoot(popup, "authorization-revoked");
    });

    it("shows the unreachable screen when the backend is down", async () => {
      await stack.stopBackend();
      await popup.reload();
      await popup
        .getByRole("heading", { name: "Can't reach the Overture backend" })
        .waitFor({ timeout: 30_000 });
      await browser.shoot(popup, "backend-unreachable");
    });
  },
);
