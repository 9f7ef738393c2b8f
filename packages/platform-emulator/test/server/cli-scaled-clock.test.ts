import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createWebhookMiddleware } from "@overture/core/receiver/node";
import { afterEach, describe, expect, it } from "vitest";
import { startCli, type RunningCli } from "../helpers/cli.ts";

const auth = { Authorization: "Bearer emu-demo-studio-paid-0001" };
const TERMINAL = ["success", "failure", "cancelled"];

/** A receiver as a developer writes one: core's verifier, with its default timestamp window. */
async function coreReceiver(secret: string) {
  const events: string[] = [];
  const rejections: string[] = [];
  const receive = createWebhookMiddleware({
    secrets: [secret],
    onEvent: (event) => {
      events.push(event.status);
    },
    onRejected: (rejection) => {
      rejections.push(`${rejection.code}: ${rejection.message}`);
    },
  });
  const server = createServer((req, res) => void receive(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/platform`;
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { url, events, rejections, close };
}

async function untilTerminal(base: string, id: string, deadline: number): Promise<string> {
  for (;;) {
    const res = await fetch(`${base}/api/v1/task/${id}`, { headers: auth });
    const { status } = (await res.json()) as { status: string };
    if (TERMINAL.includes(status) || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the CLI with a scaled clock (README quick start: --speed spec --scale 60)", () => {
  let cli: RunningCli | undefined;
  let receiver: Awaited<ReturnType<typeof coreReceiver>> | undefined;
  afterEach(() => {
    cli?.stop();
    receiver?.close();
  });

  it("signs every callback so that core's receiver, on its own wall clock, verifies it", async () => {
    cli = await startCli(["--port", "0", "--speed", "spec", "--scale", "60"]);
    const base = cli.url;
    const reset = await fetch(`${base}/__emulator/accounts/demo/webhook-secret/reset`, {
      method: "POST",
    });
    receiver = await coreReceiver(((await reset.json()) as { secret: string }).secret);
    const form = new FormData();
    form.set("prompt", "a scaled afternoon");
    // The spec preset's first task waits 20 s and runs 286 s of emulated time: about 5 s of wall
    // time, by when the clock is 59/60 of 306 s ahead of the wall, beyond core's 5 minute window.
    const submitted = await fetch(`${base}/v1/async/music/generations`, {
      method: "POST",
      headers: { ...auth, "X-WebHook": receiver.url },
      body: form,
    });
    const { task_id } = (await submitted.json()) as { task_id: string };

    expect(await untilTerminal(base, task_id, Date.now() + 20_000)).toBe("success");
    await fetch(`${base}/__emulator/settle`, { method: "POST" });
    const deliveries = (await (
      await fetch(`${base}/__emulator/deliveries?task_id=${task_id}`)
    ).json()) as { eventStatus: string; state: string }[];

    expect(receiver.rejections).toEqual([]);
    // Sorted: callbacks may arrive in any order (spec 6).
    expect([...receiver.events].sort()).toEqual(["in_progress", "success", "waiting"]);
    expect(deliveries.map((d) => `${d.eventStatus} ${d.state}`).sort()).toEqual([
      "in_progress succeeded",
      "success succeeded",
      "waiting succeeded",
    ]);
  }, 30_000);
});
