import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve, type ServerType } from "@hono/node-server";
import { createWebhookMiddleware } from "@overture/core/receiver/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { nodeFetch } from "../../src/server/listen.ts";
import { approveDevice } from "../support/device.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { PLATFORM_BASE_URL, startTestBackend, type TestBackend } from "../support/harness.ts";
import { RELAY_ON } from "../support/relay.ts";

/**
 * `overture-webhooks listen` end to end, as a developer runs it: the command that ships in
 * @overture/core (its bin, built), a backend on a real socket, the platform emulator delivering a
 * real task's callbacks to the relay URL the command printed, and a receiver on node:http that
 * verifies them with core's middleware and the account's secret.
 */
const CORE_DIR = dirname(fileURLToPath(import.meta.resolve("@overture/core/package.json")));
const BIN = join(CORE_DIR, "bin/overture-webhooks.js");

/** The command as a child process, its output kept line by line. */
function runCommand(args: string[], env: Record<string, string>) {
  if (!existsSync(join(CORE_DIR, "dist/cli/overture-webhooks.js")))
    throw new Error("@overture/core is not built: run `pnpm turbo run build` first");
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean));
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    lines,
    exited,
    async line(pattern: RegExp, waitMs = 15_000): Promise<RegExpExecArray> {
      const until = Date.now() + waitMs;
      for (;;) {
        for (const line of lines) {
          const match = pattern.exec(line);
          if (match) return match;
        }
        if (Date.now() > until)
          throw new Error(`no line matching ${pattern} in:\n${lines.join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    interrupt: () => child.kill("SIGINT"),
    kill: () => child.kill("SIGKILL"),
  };
}

describeEachDriver("overture-webhooks listen through the backend's relay", (driver) => {
  let t: TestBackend;
  let server: ServerType;
  let backendUrl: string;
  let receiver: Server;
  let receiverUrl: string;
  let configDir: string;
  const events: { task_id: string; status: string }[] = [];
  let secret: string;

  beforeAll(async () => {
    t = await startTestBackend({ driver, config: RELAY_ON });
    server = await new Promise<ServerType>((resolve) => {
      const listening = serve(
        { fetch: nodeFetch(t.backend), hostname: "127.0.0.1", port: 0 },
        () => {
          resolve(listening);
        },
      );
    });
    backendUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    secret = t.emu.control.resetWebhookSecret("demo");
    const verify = createWebhookMiddleware({
      secrets: secret,
      // The emulator signs with its (manual) clock; the receiver reads the same one.
      now: () => t.clock.now(),
      onEvent: (event) => void events.push(event),
    });
    receiver = createServer((request, response) => void verify(request, response));
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    configDir = await mkdtemp(join(tmpdir(), "overture-listen-e2e-"));
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    await new Promise((resolve) => server.close(resolve));
    await t.close();
    await rm(configDir, { recursive: true, force: true });
  });

  it("signs in with a device code, and forwards a task's callbacks that the receiver verifies", async () => {
    const listen = runCommand(
      ["listen", "--backend", backendUrl, "--forward-to", `${receiverUrl}/hook`],
      { OVERTURE_CONFIG_DIR: configDir },
    );
    try {
      const [, userCode] = await listen.line(/this code: ([A-Z]{4}-[A-Z]{4})/);
      await approveDevice(t, userCode ?? "");
      const [, relayUrl] = await listen.line(/^\s+(http:\/\/backend\.test\/relay\/\S+)$/);
      await listen.line(/^Ready\.$/);

      const form = new FormData();
      form.set("prompt", "relay end to end");
      form.set("duration", "30");
      const submitted = await t.emu.app.request(`${PLATFORM_BASE_URL}/v1/async/music/generations`, {
        method: "POST",
        headers: {
          Authorization: "Bearer emu-demo-studio-paid-0001",
          "X-WebHook": `${relayUrl}/hook?b=2&a=1`,
        },
        body: form,
      });
      const { task_id: taskId } = (await submitted.json()) as { task_id: string };
      await t.emu.control.clock.advance(10_000);

      await listen.line(/ success \S+ {2}→ 200 /);
      expect(events.map((e) => e.status)).toContain("success");
      expect(events.every((e) => e.task_id === taskId)).toBe(true);
      expect(listen.lines.filter((l) => l.includes("→ 200"))).toHaveLength(events.length);
      expect(listen.lines.join("\n")).not.toMatch(/ovs_/);
    } finally {
      listen.interrupt();
    }
    expect(await listen.exited).toBe(0);
    expect(listen.lines.at(-1)).toBe("Stopped.");
    const file = join(configDir, "webhooks-cli.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // A command started as a child, a device code polled every 5 s and a task: longer than a unit test.
  }, 45_000);

  it("lists the command's session among the user's devices", async () => {
    const { sessionToken } = await t.signIn();
    const listed = (await (await t.request("/api/sessions", { session: sessionToken })).json()) as {
      sessions: { user_agent: string | null }[];
    };
    expect(listed.sessions.map((s) => s.user_agent)).toContainEqual(
      expect.stringMatching(/^overture-webhooks \(listen; node v/),
    );
  });

  it("reuses its session and channel the next time, and --replay sends the last delivery again", async () => {
    const before = events.length;
    const listen = runCommand(
      ["listen", "--backend", backendUrl, "--forward-to", `${receiverUrl}/hook`, "--replay"],
      { OVERTURE_CONFIG_DIR: configDir },
    );
    try {
      await listen.line(/^replay .* success \S+ {2}→ 200 /);
      await listen.line(/^Ready\.$/);
      expect(listen.lines.join("\n")).not.toContain("this code:");
    } finally {
      listen.interrupt();
    }
    expect(await listen.exited).toBe(0);
    expect(events.length).toBe(before + 1);
  });

  it("says the backend cannot be reached, naming the cause, and exits 1", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => {
          resolve(port);
        });
      });
    });
    const listen = runCommand(
      ["listen", "--backend", `http://127.0.0.1:${closed}`, "--forward-to", receiverUrl],
      { OVERTURE_CONFIG_DIR: configDir },
    );
    expect(await listen.exited).toBe(1);
    expect(listen.lines.join("\n")).toContain(`ECONNREFUSED 127.0.0.1:${closed}`);
  });
});
