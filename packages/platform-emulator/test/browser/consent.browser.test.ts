import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SEED } from "../../src/index.ts";
import { startPlatformEmulator, type RunningEmulator } from "../../src/server.ts";
import { startReceiver } from "../helpers/receiver.ts";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const skipReason =
  process.env.OVERTURE_SKIP_BROWSER === "1" ? "skipped: OVERTURE_SKIP_BROWSER=1" : undefined;
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

describe(`consent page in a real Chromium (spec 4.1, 7)${skipReason ? ` — ${skipReason}` : ""}`, () => {
  const s: {
    browser?: Browser;
    receiver?: Awaited<ReturnType<typeof startReceiver>>;
    emu?: RunningEmulator;
  } = {};
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("browser test setup did not finish");
    return value;
  };
  let redirectUri = "";

  beforeAll(async () => {
    if (skipReason) return;
    if (!existsSync(executablePath))
      throw new Error(
        `Chromium not found at ${executablePath}. Install it (apt-get install -y chromium), set CHROMIUM_PATH, or set OVERTURE_SKIP_BROWSER=1 to skip these tests.`,
      );
    s.receiver = await startReceiver(() => ({ status: 200, body: "application callback" }));
    redirectUri = `${s.receiver.url}/oauth/callback`;
    const app = { ...DEFAULT_SEED.applications[0], redirect_uri: redirectUri };
    s.emu = await startPlatformEmulator({
      port: 0,
      seed: { ...DEFAULT_SEED, applications: [app] },
    });
    s.browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
  });
  afterAll(async () => {
    await s.browser?.close();
    await s.emu?.close();
    await s.receiver?.close();
  });

  const authorizeUrl = (redirect = redirectUri, state = "st-browser") => {
    const url = new URL("/oauth/authorize", need(s.emu).url);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: "overture-local",
      redirect_uri: redirect,
      scope: "user_info api_key",
      state,
    }).toString();
    return url.href;
  };
  const open = async (url: string): Promise<Page> => {
    const page = await need(s.browser).newPage();
    await page.goto(url);
    return page;
  };

  it.skipIf(skipReason !== undefined)(
    "shows the app and scopes, switches user, and Approve lands on redirect_uri with code and state",
    async () => {
      const page = await open(authorizeUrl());
      await expect.poll(() => page.getByTestId("app-name").textContent()).toBe("Overture");
      expect(
        await page
          .locator("[data-scope]")
          .evaluateAll((els) => els.map((e) => e.getAttribute("data-scope"))),
      ).toEqual(["user_info", "api_key"]);
      expect(await page.getByTestId("signed-in-name").textContent()).toBe("Demo Listener");
      await page.getByRole("button", { name: "Ada Lovelace" }).click();
      await page.waitForURL(/\/oauth\/authorize\?/);
      expect(await page.getByTestId("signed-in-name").textContent()).toBe("Ada Lovelace");
      await page.getByRole("button", { name: "Approve" }).click();
      await page.waitForURL((u) => u.href.startsWith(redirectUri));
      const landed = new URL(page.url());
      expect(landed.searchParams.get("code")).toMatch(/^code_/);
      expect(landed.searchParams.get("state")).toBe("st-browser");
      expect(await page.textContent("body")).toContain("application callback");

      // The code belongs to the user chosen with the switch.
      const tokens = (await (
        await fetch(new URL("/api/open/oauth/token", need(s.emu).url), {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "authorization_code",
            code: landed.searchParams.get("code") ?? "",
            redirect_uri: redirectUri,
            client_id: "overture-local",
            client_secret: "overture-local-secret-change-me",
          }),
        })
      ).json()) as { access_token: string };
      const me = (await (
        await fetch(new URL("/api/open/v1/userinfo", need(s.emu).url), {
          headers: { Authorization: `Bearer ${tokens.access_token}` },
        })
      ).json()) as { login: string };
      expect(me.login).toBe("ada");
      await page.close();
    },
  );

  it.skipIf(skipReason !== undefined)(
    "Deny lands on redirect_uri with error=access_denied and the state",
    async () => {
      const page = await open(authorizeUrl(redirectUri, "st-deny"));
      await page.getByRole("button", { name: "Deny" }).click();
      await page.waitForURL((u) => u.href.startsWith(redirectUri));
      const landed = new URL(page.url());
      expect(landed.searchParams.get("error")).toBe("access_denied");
      expect(landed.searchParams.get("state")).toBe("st-deny");
      expect(landed.searchParams.has("code")).toBe(false);
      await page.close();
    },
  );

  it.skipIf(skipReason !== undefined)(
    "a redirect_uri that is not registered shows an error page and never redirects",
    async () => {
      const receiver = need(s.receiver);
      const before = receiver.received.length;
      const page = await open(authorizeUrl(`${receiver.url}/elsewhere`));
      expect(await page.textContent("h1")).toContain("Redirect address not registered");
      expect(page.url().startsWith(need(s.emu).url)).toBe(true);
      expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
      expect(receiver.received.length).toBe(before);
      await page.close();
    },
  );
});
