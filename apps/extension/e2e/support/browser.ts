// Real Chromium with the built extension loaded (launch options from STACK.md).
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BrowserContext, type Page, chromium } from "playwright-core";

export const EXTENSION_DIR = resolve(import.meta.dirname, "../../.output/chrome-mv3");
export const SCREENSHOT_DIR = resolve(import.meta.dirname, "../../test-results/screenshots");

/** Chromium's path, or why the browser tests cannot run. */
export function findChromium(): { path: string } | { missing: string } {
  const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  return existsSync(path)
    ? { path }
    : {
        missing: `no Chromium at ${path} (install it with \`apt-get install -y chromium\` or set CHROMIUM_PATH)`,
      };
}

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  /** Opens one of the extension's pages in a tab of the popup's size (or the options page's). */
  open(page: "popup.html" | "sidepanel.html" | "options.html" | "privacy.html"): Promise<Page>;
  /** Saves a full-page screenshot as test-results/screenshots/<lang>/<name>.png. */
  shoot(page: Page, name: string): Promise<void>;
  /**
   * Closes the browser and starts it again on the same profile (the extension's storage kept);
   * `emptyCaches`: without the browser's HTTP, code and GPU caches, as after an update.
   */
  restart(options?: { emptyCaches?: boolean }): Promise<void>;
  close(): Promise<void>;
}

const SIZES = {
  "popup.html": { width: 400, height: 600 },
  "sidepanel.html": { width: 380, height: 760 },
  "options.html": { width: 900, height: 900 },
  "privacy.html": { width: 900, height: 900 },
} as const;

/**
 * `extensionDir`: a development build unless told (the store build has no fixed id).
 * `bypassCSP`: lets a test inject a script of its own into the extension's pages (axe-core).
 */
export async function launchExtension(
  chromiumPath: string,
  lang: "en-US" | "zh-CN",
  extensionDir = EXTENSION_DIR,
  options: { bypassCSP?: boolean } = {},
): Promise<ExtensionBrowser> {
  const profile = await mkdtemp(join(tmpdir(), "overture-chromium-"));
  const launch = () =>
    chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      locale: lang,
      bypassCSP: options.bypassCSP ?? false,
      ignoreDefaultArgs: ["--disable-extensions"],
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--autoplay-policy=no-user-gesture-required",
        `--lang=${lang}`,
        `--disable-extensions-except=${extensionDir}`,
        `--load-extension=${extensionDir}`,
      ],
    });
  let context: BrowserContext = await launch();
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
  const extensionId = new URL(worker.url()).host;
  const shots = join(SCREENSHOT_DIR, lang === "en-US" ? "en" : "zh-CN");
  await mkdir(shots, { recursive: true });
  return {
    get context() {
      return context;
    },
    extensionId,
    async open(name) {
      const page = await context.newPage();
      await page.setViewportSize(SIZES[name]);
      await page.goto(`chrome-extension://${extensionId}/${name}`);
      return page;
    },
    async shoot(page, name) {
      await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    },
    async restart({ emptyCaches = false } = {}) {
      await context.close();
      if (emptyCaches)
        for (const cache of ["Cache", "Code Cache", "GPUCache", "DawnGraphiteCache"])
          await rm(join(profile, "Default", cache), { recursive: true, force: true });
      context = await launch();
      if (context.serviceWorkers().length === 0) await context.waitForEvent("serviceworker");
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
