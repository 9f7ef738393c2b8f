import { describe, expect, it } from "vitest";
import { startPlatformEmulator } from "../../src/server.ts";
import { startCli } from "../helpers/cli.ts";

const auth = { Authorization: "Bearer emu-demo-studio-paid-0001" };

describe("startPlatformEmulator and the CLI", () => {
  it("listens on 127.0.0.1 with a free port and shares base_url and api_url by default", async () => {
    const emu = await startPlatformEmulator({ port: 0, clock: "manual" });
    try {
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emu.apiUrl).toBe(emu.url);
      const quota = await fetch(`${emu.url}/v1/tasks/available-quota`, { headers: auth });
      expect(await quota.json()).toEqual({ available: 2, max_concurrency: 2 });
    } finally {
      await emu.close();
    }
  });

  it('starts in the live profile for other packages\' tests: startPlatformEmulator({ profile: "live" })', async () => {
    const emu = await startPlatformEmulator({ port: 0, clock: "manual", profile: "live" });
    try {
      const res = await fetch(`${emu.url}/v1/async/music/generations`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ prompt: "live over HTTP" }),
      });
      expect(((await res.json()) as { task_id: string }).task_id).toMatch(/^[A-Z0-9]{32}$/);
      expect(emu.emulator.options.profile).toBe("live");
    } finally {
      await emu.close();
    }
  });

  it("serves {base_url} and {api_url} routes on two ports when apiPort is given", async () => {
    const emu = await startPlatformEmulator({ port: 0, apiPort: 0, clock: "manual" });
    try {
      expect(emu.apiUrl).not.toBe(emu.url);
      expect(
        (await fetch(`${emu.apiUrl}/v1/tasks/available-quota`, { headers: auth })).status,
      ).toBe(200);
      expect((await fetch(`${emu.url}/v1/tasks/available-quota`, { headers: auth })).status).toBe(
        404,
      );
      expect((await fetch(`${emu.apiUrl}/api/open/v1/userinfo`)).status).toBe(404);
      const form = new FormData();
      form.append("prompt", "two ports");
      const submitted = await fetch(`${emu.apiUrl}/v1/async/music/generations`, {
        method: "POST",
        headers: auth,
        body: form,
      });
      const { urls } = (await submitted.json()) as { urls: { get: string } };
      expect(urls.get.startsWith(`${emu.apiUrl}/api/v1/task/`)).toBe(true);
    } finally {
      await emu.close();
    }
  });

  it("the CLI starts and prints its URLs and seeded credentials", async () => {
    const cli = await startCli(["--port", "0"]);
    try {
      expect(cli.banner).toMatch(/base_url\s+http:\/\/127\.0\.0\.1:\d+/);
      expect(cli.banner).toContain(
        "client_id=overture-local client_secret=overture-local-secret-change-me",
      );
      expect(cli.banner).toContain("emu-demo-studio-paid-0001");
      expect((await fetch(`${cli.url}/__emulator/state`)).status).toBe(200);
      expect(cli.banner).toContain("X-Sign-Timestamp on the wall clock");
    } finally {
      cli.stop();
    }
  });

  it("the CLI's --timestamp-clock emulator sets the option (the banner names the clock it signs with)", async () => {
    const cli = await startCli(["--port", "0", "--timestamp-clock", "emulator"]);
    try {
      expect(cli.banner).toContain("X-Sign-Timestamp on the emulator clock");
    } finally {
      cli.stop();
    }
  });
});
