import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run, type CliIo } from "../../cli/main.ts";
import { createWebhookHandler } from "../../src/receiver/index.ts";
import { signWebhook } from "../../src/webhook/index.ts";
import { BACKEND, deliveryFrame, fakeBackend, type PollAnswer } from "./fake-backend.ts";

const LOCAL = "http://localhost:3000";
const SECRET = "listen-test-secret";

/** Node's fetch to a port nobody listens on: "fetch failed", the reason in `cause`. */
function refused(port: number): TypeError {
  const cause = Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), {
    code: "ECONNREFUSED",
    address: "127.0.0.1",
    port,
  });
  return new TypeError("fetch failed", { cause });
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let configDir: string;
beforeEach(async () => {
  configDir = await mkdtemp(join(tmpdir(), "overture-listen-"));
});
afterEach(async () => {
  await rm(configDir, { recursive: true, force: true });
});

function startListen(
  backend: ReturnType<typeof fakeBackend>,
  options: {
    args?: string[];
    receiver?: (request: Request) => Promise<Response>;
    backendDown?: boolean;
    idleTimeoutMs?: number;
  } = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const sleeps: number[] = [];
  const received: Request[] = [];
  const controller = new AbortController();
  const io: CliIo = {
    env: {},
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readFile: () => Promise.reject(new Error("no files")),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.url.startsWith(BACKEND)) {
        if (options.backendDown) throw refused(8787);
        return backend.handle(request);
      }
      if (request.url.startsWith(LOCAL) && options.receiver) {
        received.push(request.clone());
        return options.receiver(request);
      }
      throw refused(3000);
    },
    now: () => Date.now(),
    configDir,
    idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
    // No real waiting, but a turn of the event loop, as a timer would give.
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      await new Promise((resolve) => setTimeout(resolve, 0));
      signal?.throwIfAborted();
    },
    interrupts: () => controller.signal,
  };
  const exit = run(
    ["listen", "--backend", BACKEND, "--forward-to", `${LOCAL}/hook`, ...(options.args ?? [])],
    io,
  );
  return {
    out,
    err,
    sleeps,
    received,
    exit,
    /** Ctrl-C, then the exit code. */
    async stop(): Promise<number> {
      controller.abort();
      return exit;
    },
  };
}

/** A delivery signed for the relay URL the platform called (query `b=2&a=1`). */
async function signedDelivery(id: string, status = "success", timestamp = Date.now()) {
  // A success carries its result link, as the typed receiver requires.
  const output = status === "success" ? { file_url: "https://files.test/T1.wav" } : {};
  const body = JSON.stringify({ event_id: `ev${id}`, task_id: "T1", status, output });
  const headers = await signWebhook({
    secret: SECRET,
    url: `${BACKEND}/relay/rl_x/hook?b=2&a=1`,
    body,
    timestamp,
  });
  return deliveryFrame({
    id,
    query: "b=2&a=1",
    headers: [
      ["content-type", "application/json"],
      ["user-agent", "platform-webhooks/1.0"],
      ["x-sign-timestamp", headers["X-Sign-Timestamp"]],
      ["x-signature", headers["X-Signature"]],
    ],
    body,
  });
}

describe("overture-webhooks listen", () => {
  it("signs in with a device code, polling at the interval and slower after slow_down", async () => {
    const polls: PollAnswer[] = ["authorization_pending", "slow_down", "approve"];
    const backend = fakeBackend({ polls });
    const listen = startListen(backend);
    await until(() => backend.streams.length === 1, "the stream");
    expect(listen.out.join("\n")).toContain(`${BACKEND}/device?user_code=BCDF-GHJK`);
    expect(listen.out.join("\n")).toContain("BCDF-GHJK");
    expect(listen.sleeps.slice(0, 3)).toEqual([5_000, 5_000, 10_000]);
    expect(listen.out).toContain("Signed in to http://backend.test as demo.");
    expect(listen.out.join("\n")).toContain(`${BACKEND}/relay/rl_`);
    expect(backend.streams[0]?.userAgent).toMatch(/^overture-webhooks \(listen; node /);
    expect(await listen.stop()).toBe(0);
    expect(listen.out.at(-1)).toBe("Stopped.");
  });

  it("keeps the session in a file only its owner can read, never printed", async () => {
    const backend = fakeBackend();
    const listen = startListen(backend);
    await until(() => backend.streams.length === 1, "the stream");
    await listen.stop();
    const file = join(configDir, "webhooks-cli.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, "utf8")).toContain("ovs_fake_1");
    expect([...listen.out, ...listen.err].join("\n")).not.toContain("ovs_fake_1");
  });

  it("reuses the stored session and channel the next time, without signing in", async () => {
    const backend = fakeBackend();
    const first = startListen(backend);
    await until(() => backend.streams.length === 1, "the first stream");
    await first.stop();
    const second = startListen(backend);
    await until(() => backend.streams.length === 2, "the second stream");
    await second.stop();
    expect(backend.calls.filter((c) => c === "POST /auth/device")).toHaveLength(1);
    expect(backend.calls.filter((c) => c === "POST /api/relay/channels")).toHaveLength(1);
    expect(backend.streams[1]?.channelId).toBe(backend.streams[0]?.channelId);
    expect(second.out.join("\n")).toContain(`${BACKEND}/relay/rl_`);
  });

  it("forwards a delivery with its exact body, headers and query: core's receiver verifies it", async () => {
    const backend = fakeBackend();
    const events: { status: string }[] = [];
    const receiver = createWebhookHandler({ secrets: SECRET, onEvent: (e) => void events.push(e) });
    const listen = startListen(backend, { receiver });
    await until(() => backend.streams.length === 1, "the stream");
    backend.streams[0]?.push(await signedDelivery("7"));
    await until(() => events.length === 1, "the local delivery");
    const request = listen.received[0];
    expect(request?.url).toBe(`${LOCAL}/hook?b=2&a=1`);
    expect(request?.headers.get("user-agent")).toBe("platform-webhooks/1.0");
    await until(() => listen.out.some((l) => l.includes("→")), "the delivery line");
    expect(listen.out.find((l) => l.includes("→"))).toMatch(
      /^\d\d:\d\d:\d\d {2}POST \/\?b=2&a=1 {2}success ev7 {2}→ 200 \(\d+ ms\)$/,
    );
    await listen.stop();
  });

  it("sends the body's bytes unchanged, even when they are not UTF-8", async () => {
    const backend = fakeBackend();
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x00, 0xff, 0xfe]);
    let got: Uint8Array | undefined;
    const listen = startListen(backend, {
      receiver: async (request) => {
        got = new Uint8Array(await request.arrayBuffer());
        return new Response(null, { status: 204 });
      },
    });
    await until(() => backend.streams.length === 1, "the stream");
    backend.streams[0]?.push(
      deliveryFrame({ id: "1", path: "/deep", headers: [["content-length", "99"]], body: bytes }),
    );
    await until(() => got !== undefined, "the local delivery");
    expect(got).toEqual(bytes);
    expect(listen.received[0]?.url).toBe(`${LOCAL}/hook/deep`);
    await listen.stop();
  });

  it("sends nothing to another host, whatever path suffix a delivery carries", async () => {
    const backend = fakeBackend();
    const listen = startListen(backend, {
      receiver: () => Promise.resolve(new Response("ok")),
      args: ["--forward-to", `${LOCAL}/`],
    });
    await until(() => backend.streams.length === 1, "the stream");
    // Appended to http://localhost:3000 it would read as user info before another host.
    backend.streams[0]?.push(
      deliveryFrame({ id: "1", path: "@evil.example/x", headers: [], body: "{}" }),
    );
    await until(() => listen.out.some((l) => l.includes("→")), "the delivery line");
    expect(listen.out.join("\n")).toContain(
      "→ no answer: not sent: its path would leave --forward-to",
    );
    expect(listen.received).toHaveLength(0);
    await listen.stop();
  });

  it("says when the local receiver does not answer, and goes on listening", async () => {
    const backend = fakeBackend();
    const listen = startListen(backend);
    await until(() => backend.streams.length === 1, "the stream");
    backend.streams[0]?.push(await signedDelivery("1"));
    await until(() => listen.out.some((l) => l.includes("→")), "the delivery line");
    expect(listen.out.join("\n")).toContain("→ no answer: ECONNREFUSED 127.0.0.1:3000");
    expect(await listen.stop()).toBe(0);
  });

  it("--replay sends the last delivery again before listening", async () => {
    const backend = fakeBackend();
    const statuses: string[] = [];
    const receiver = createWebhookHandler({
      secrets: SECRET,
      onEvent: (e) => void statuses.push(e.status),
    });
    const first = startListen(backend, { receiver });
    await until(() => backend.streams.length === 1, "the stream");
    backend.streams[0]?.push(await signedDelivery("1", "in_progress"));
    backend.streams[0]?.push(await signedDelivery("2", "success"));
    await until(() => statuses.length === 2, "two deliveries");
    await first.stop();
    const second = startListen(backend, { receiver, args: ["--replay"] });
    await until(() => backend.streams.length === 2, "the second stream");
    expect(statuses).toEqual(["in_progress", "success", "success"]);
    expect(second.out.find((l) => l.startsWith("replay "))).toContain("success ev2  → 200");
    // The stream resumes after the last delivery received.
    expect(backend.streams[1]?.lastEventId).toBe("2");
    await second.stop();
  });

  it("--replay of a delivery signed before the receivers' window says why it is refused", async () => {
    const backend = fakeBackend();
    const receiver = createWebhookHandler({ secrets: SECRET, onEvent: () => undefined });
    const first = startListen(backend, { receiver });
    await until(() => backend.streams.length === 1, "the stream");
    backend.streams[0]?.push(await signedDelivery("1", "success", Date.now() - 42 * 60_000));
    await until(() => first.out.some((l) => l.includes("→ 401")), "the refusal");
    expect(first.out.join("\n")).not.toContain("min ago");
    await first.stop();
    const second = startListen(backend, { receiver, args: ["--replay"] });
    await until(() => backend.streams.length === 2, "the second stream");
    const replayed = second.out.findIndex((l) => l.startsWith("replay "));
    expect(second.out[replayed]).toContain("→ 401");
    expect(second.out[replayed + 1]).toMatch(/^ {2}\(signed 42 min ago: .*5-minute window/);
    await second.stop();
  });

  it("reconnects with Last-Event-ID when the stream ends", async () => {
    const backend = fakeBackend();
    const listen = startListen(backend, { receiver: () => Promise.resolve(new Response("ok")) });
    await until(() => backend.streams.length === 1, "the stream");
    backend.streams[0]?.push(await signedDelivery("41"));
    await until(() => listen.out.some((l) => l.includes("→")), "the delivery");
    backend.streams[0]?.end();
    await until(() => backend.streams.length === 2, "the reconnect");
    expect(backend.streams[1]?.lastEventId).toBe("41");
    expect(listen.sleeps).toContain(10); // the server's retry: hint
    await listen.stop();
  });

  it("reopens a stream that fell silent (no frame, no ping) for the idle timeout", async () => {
    const backend = fakeBackend();
    const listen = startListen(backend, { idleTimeoutMs: 50 });
    await until(() => backend.streams.length === 2, "the stream reopened");
    expect(listen.err.join("\n")).toContain("The stream was cut (nothing for 0.05 s)");
    await listen.stop();
  });

  it("signs in again when the session was revoked", async () => {
    const backend = fakeBackend();
    const first = startListen(backend);
    await until(() => backend.streams.length === 1, "the stream");
    await first.stop();
    backend.revokeAll();
    const second = startListen(backend);
    await until(() => backend.streams.length === 2, "the stream after signing in again");
    expect(second.err.join("\n")).toContain("sign in again");
    expect(backend.streams[1]?.session).toBe("ovs_fake_2");
    await second.stop();
  });

  it("makes a new channel when the stored one was deleted, and prints its URL", async () => {
    const backend = fakeBackend();
    const first = startListen(backend);
    await until(() => backend.streams.length === 1, "the stream");
    await first.stop();
    backend.deleteChannel(backend.streams[0]?.channelId ?? "");
    const second = startListen(backend);
    await until(() => backend.streams.length === 2, "the stream of the new channel");
    expect(second.err.join("\n")).toContain("no longer exists");
    expect(backend.streams[1]?.channelId).not.toBe(backend.streams[0]?.channelId);
    await second.stop();
  });

  it("refuses a --channel that is not one of the user's, exit 1", async () => {
    const backend = fakeBackend();
    const listen = startListen(backend, { args: ["--channel", "not-mine"] });
    expect(await listen.exit).toBe(1);
    expect(listen.err.join("\n")).toContain("not-mine is not one of yours");
  });

  it("says which file it cannot read when its config file is not its JSON, exit 1", async () => {
    await writeFile(join(configDir, "webhooks-cli.json"), "{ not json");
    const listen = startListen(fakeBackend());
    expect(await listen.exit).toBe(1);
    expect(listen.err.join("\n")).toContain(
      `${join(configDir, "webhooks-cli.json")} is not the JSON`,
    );
  });

  it("says the backend cannot be reached, with the cause, exit 1", async () => {
    const listen = startListen(fakeBackend(), { backendDown: true });
    expect(await listen.exit).toBe(1);
    expect(listen.err.join("\n")).toContain(
      "cannot reach the backend at http://backend.test: ECONNREFUSED 127.0.0.1:8787",
    );
  });

  it("says the backend has no relay turned on, exit 1", async () => {
    const listen = startListen(fakeBackend({ relayEnabled: false }));
    expect(await listen.exit).toBe(1);
    expect(listen.err.join("\n")).toContain("RELAY_ENABLED=true");
  });

  it.each([
    ["access_denied", "denied in the browser"],
    ["expired_token", "expired before it was approved"],
  ] as const)("stops when the sign-in answers %s, exit 1", async (answer, said) => {
    const listen = startListen(fakeBackend({ polls: ["authorization_pending", answer] }));
    expect(await listen.exit).toBe(1);
    expect(listen.err.join("\n")).toContain(said);
  });

  it("stops cleanly on Ctrl-C while waiting for the sign-in", async () => {
    const backend = fakeBackend({ polls: Array<PollAnswer>(1_000).fill("authorization_pending") });
    const listen = startListen(backend);
    await until(() => backend.calls.includes("POST /auth/device/token"), "a poll");
    expect(await listen.stop()).toBe(0);
    expect(listen.out.at(-1)).toBe("Stopped.");
    expect(backend.streams).toHaveLength(0);
  });

  it.each([
    [["--forward-to", `${LOCAL}/hook?k=1`], "takes no query"],
    [["--forward-to", "ftp://localhost/hook"], "must be an http(s) URL"],
  ])("refuses wrong usage %j with exit 2", async (args, said) => {
    const err: string[] = [];
    const code = await run(["listen", "--backend", BACKEND, ...args], {
      env: {},
      out: () => undefined,
      err: (line) => err.push(line),
      readFile: () => Promise.reject(new Error("no files")),
      fetch: () => Promise.reject(new Error("no network")),
      now: () => 0,
    });
    expect(code).toBe(2);
    expect(err.join("")).toContain(said);
  });
});
