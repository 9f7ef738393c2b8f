// Live task events in a real Firefox (Debian's firefox-esr): the development build installed as a
// temporary add-on, signed in against the local stack through Firefox's own auth window, a task
// submitted from the popup (opened as a tab), and its status followed in that same document while
// the background forwards the backend's event stream. Skipped, with the reason, without Firefox.
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type FirefoxAddon,
  type FirefoxPage,
  type RunningFirefox,
  buildFirefox,
  launchFirefox,
} from "./support/firefox.ts";
import { quietly, type Stack, startStack } from "./support/stack.ts";
import { describeInFirefox } from "./support/suite.ts";

interface Seen {
  status: string;
  at: number;
}

/**
 * Records every status each task card shows, as it changes, in the page itself; and marks the
 * document, so a reload (which would read the tasks afresh) shows as a lost mark.
 */
const RECORD_STATUSES = `(w) => {
  w.__overtureMark = "first load";
  w.__overtureSeen = {};
  const record = () => {
    for (const li of w.document.querySelectorAll("li.task[data-task-id]")) {
      const seen = (w.__overtureSeen[li.dataset.taskId] ??= []);
      if (seen.at(-1)?.status !== li.dataset.status)
        seen.push({ status: li.dataset.status, at: Date.now() });
    }
  };
  new w.MutationObserver(record).observe(w.document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"],
  });
  record();
  return true;
}`;

/** Clicks what `selector` finds (a script's click: Preact's handlers run as for a person's). */
const click = (selector: string) => `(w) => {
  const element = w.document.querySelector(${JSON.stringify(selector)});
  if (!element || element.disabled) return false;
  element.click();
  return true;
}`;

const exists = (selector: string) =>
  `(w) => w.document.querySelector(${JSON.stringify(selector)}) !== null`;

describeInFirefox("live task events in Firefox", (firefoxPath) => {
  let stack: Stack;
  let browser: RunningFirefox;
  let addon: FirefoxAddon;
  let popup: FirefoxPage;
  let taskId = "";

  beforeAll(async () => {
    // The emulator approves the consent page at once: Firefox's auth window needs no click.
    const [build, started] = await Promise.all([
      buildFirefox("dev"),
      startStack({ autoApprove: true }),
    ]);
    stack = started;
    browser = await launchFirefox(firefoxPath);
    addon = await browser.install(build);
  });

  afterAll(async () => {
    await quietly(() => browser.close());
    await quietly(() => stack.close());
  });

  it("points the add-on at the local backend", async () => {
    // What the settings form sends once its permission prompt is answered: Firefox grants
    // permissions.request only in a person's click, and the development build holds 127.0.0.1.
    const options = await addon.open("options.html");
    const saved = await options.waitFor<{ ok: boolean }>(
      `(w) => w.document.querySelector("#backend-url") &&
        w.browser.runtime.sendMessage({
          overture: 1, type: "settings/backend-url", payload: { url: ${JSON.stringify(stack.backendUrl)} },
        })`,
    );
    expect(saved.ok).toBe(true);
    await options.close();
  });

  it("signs in through Firefox's auth window and opens the event stream", async () => {
    popup = await addon.open("popup.html");
    await popup.waitFor(click("section.state button.primary"));
    await popup.waitFor(exists("form[aria-label=Compose]"), 30_000);
    await popup.waitFor(click("#tab-account"));
    await popup.waitFor(
      `(w) => w.document.querySelector(".token-list")?.textContent.includes("Paid")`,
    );
    await popup.waitFor(`(w) => {
      const label = [...w.document.querySelectorAll(".token-list label")]
        .find((l) => l.textContent.includes("Studio (paid)"));
      label?.querySelector("input")?.click();
      return Boolean(label);
    }`);
    await popup.waitFor(click("[data-testid=use-token]"));
    await popup.waitFor(
      `(w) => w.document.querySelector("[data-testid=selection]")?.textContent.includes("Studio (paid)")`,
    );
    await popup.waitFor(exists('[data-connection="live"]'), 15_000);
  });

  it("shows a submitted task move on to success in the same document, through the stream", async () => {
    expect(await popup.read(RECORD_STATUSES)).toBe(true);
    await popup.waitFor(click("#tab-compose"));
    await popup.waitFor(click("fieldset button[aria-pressed]"));
    const submitted = Date.now();
    await popup.waitFor(click('form button[type="submit"]'));
    taskId = await popup.waitFor<string>(
      `(w) => w.document.querySelector("#tab-tasks[aria-selected=true]") &&
        w.document.querySelector("li.task")?.dataset.taskId`,
    );
    // The emulator runs a task for about 10 s; the polling alarm's first beat is 30 s away, and
    // does not read tasks while the stream is open.
    const seen = await popup.waitFor<Seen[]>(
      `(w) => {
        const seen = w.__overtureSeen[${JSON.stringify(taskId)}];
        return seen?.at(-1)?.status === "success" && seen;
      }`,
      60_000,
    );
    const statuses = seen.map((s) => s.status);
    console.info(
      `[overture] Firefox, live: ${seen.map((s) => `${s.status} +${s.at - submitted} ms`).join(", ")}`,
    );
    expect(statuses[0]).toMatch(/^(queued|submitting|waiting|in_progress)$/);
    expect(statuses).toContain("in_progress");
    expect(statuses.at(-1)).toBe("success");
    expect(await popup.read(`(w) => w.__overtureMark`)).toBe("first load");
    expect(await popup.read(exists('[data-connection="live"]'))).toBe(true);
    // The finished card offers its result at once, with no reload.
    expect(await popup.read(exists(`li.task[data-task-id="${taskId}"] [data-testid=play]`))).toBe(
      true,
    );
  });

  it("plays the finished track", async () => {
    await popup.waitFor(click(`li.task[data-task-id="${taskId}"] [data-testid=play]`));
    const mode = await popup.waitFor<string>(
      `(w) => w.document.querySelector(".mini-player[data-state=ready]")?.dataset.mode || null`,
      30_000,
    );
    const time = await popup.waitFor<number>(
      `(w) => w.document.querySelector(".mini-player audio")?.currentTime`,
      30_000,
    );
    console.info(`[overture] Firefox: playing (${mode}) at ${time.toFixed(3)} s`);
    expect(time).toBeGreaterThan(0);
  });

  it("draws the archived track's waveform and streams its MP3 from the backend", async () => {
    // As in Chromium: the backend archives a result shortly after it succeeded, and the list
    // learns it when it reads the tasks again (a reload). The side panel draws each row's
    // waveform inline (the popup keeps to one line per track).
    const card = `li.task[data-task-id="${taskId}"]`;
    const drawn = `${card} [data-testid=card-waveform] canvas[data-state=drawn]`;
    const panel = await addon.open("sidepanel.html");
    const deadline = Date.now() + 60_000;
    for (;;) {
      await panel.read(`(w) => { w.__overtureOld = true; w.location.reload(); return true; }`);
      await panel.waitFor(`(w) => !w.__overtureOld && (${click("#tab-tasks")})(w)`);
      await panel.waitFor(exists(card));
      const shown = await panel.waitFor(exists(drawn), 1_500).catch(() => false);
      if (shown) break;
      if (Date.now() > deadline) throw new Error("the archived waveform was never drawn");
    }
    await popup.read(`(w) => { w.__overtureOld = true; w.location.reload(); return true; }`);
    await popup.waitFor(`(w) => !w.__overtureOld && (${click("#tab-tasks")})(w)`);
    await popup.waitFor(exists(card));
    expect(await popup.read(`(w) => w.document.querySelectorAll("audio").length`)).toBe(0);
    await popup.waitFor(click(`${card} [data-testid=play]`));
    const bar = await popup.waitFor<{ mode: string; src: string }>(
      `(w) => {
        const bar = w.document.querySelector(".mini-player[data-state=ready]");
        return bar && { mode: bar.dataset.mode, src: bar.querySelector("audio").src };
      }`,
      30_000,
    );
    expect(bar.mode).toBe("stream");
    expect(bar.src.startsWith(`${stack.backendUrl}/media/`)).toBe(true);
    const time = await popup.waitFor<number>(
      `(w) => w.document.querySelector(".mini-player audio")?.currentTime`,
      30_000,
    );
    expect(time).toBeGreaterThan(0);
  });
});
