// The Node middleware behind a real node:http server: a misconfigured receiver fails when it is
// created, and no request, however broken, leaves a rejected promise behind (Node ends the
// process on an unhandled rejection, so one bad POST would take a server down).
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createWebhookHandler, type WebhookRejection } from "../src/receiver/index.ts";
import { createWebhookMiddleware, type WebhookReceiverOptions } from "../src/receiver/node.ts";
import { signWebhook } from "../src/webhook/index.ts";

const SECRET = "node-http-test-secret";
const PATH = "/webhooks/platform?k=abc";
const ignore = (): void => undefined;
const EVENT = JSON.stringify({
  event_id: "e1",
  task_id: "t1",
  status: "success",
  output: { file_url: "https://files.example/t1.wav" },
});

let server: Server | undefined;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});

afterEach(async () => {
  process.off("unhandledRejection", onUnhandled);
  vi.restoreAllMocks();
  const running = server;
  if (running) await new Promise((resolve) => running.close(resolve));
  server = undefined;
});

/** Starts `createServer(middleware)` on a free port of 127.0.0.1; returns its base URL. */
async function serve(options: Partial<WebhookReceiverOptions>): Promise<string> {
  const receive = createWebhookMiddleware({ secrets: SECRET, onEvent: ignore, ...options });
  // As createServer(receive) does: node:http drops the promise, so a rejection is unhandled.
  const started = createServer((req, res) => void receive(req, res));
  server = started;
  await new Promise<void>((resolve) => started.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
}

async function post(base: string, headers: object = {}) {
  const response = await fetch(`${base}${PATH}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: EVENT,
    signal: AbortSignal.timeout(5_000),
  });
  return { status: response.status, body: (await response.json()) as { error?: string } };
}

/** Lets any rejection left behind by the request reach the process's listeners. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("a receiver created without a usable secret", () => {
  const missing: [string, unknown][] = [
    ["undefined", undefined],
    ["an empty list", []],
    ["a list holding an unset variable", [undefined]],
    ["an empty string", ""],
    ["a blank string", "  \t"],
    ["a list with one blank secret among good ones", [SECRET, " "]],
  ];

  it.each(missing)("throws a TypeError when created with %s (middleware)", (_, secrets) => {
    const create = () =>
      createWebhookMiddleware({ secrets, onEvent: ignore } as WebhookReceiverOptions);
    expect(create).toThrow(TypeError);
    expect(create).toThrow(/createWebhookMiddleware needs a webhook secret/);
  });

  it.each(missing)("throws a TypeError when created with %s (fetch handler)", (_, secrets) => {
    const create = () =>
      createWebhookHandler({ secrets, onEvent: ignore } as WebhookReceiverOptions);
    expect(create).toThrow(/createWebhookHandler needs a webhook secret/);
  });

  it("says an unset secret may be an environment variable that is not set", () => {
    expect(() => createWebhookMiddleware({ secrets: [undefined], onEvent: ignore })).toThrow(
      /secrets\[0\] is undefined, not a string: is the environment variable that holds it set\?/,
    );
  });

  it("accepts a list whose former secrets are unset", async () => {
    const base = await serve({ formerSecrets: [undefined, ""] });
    expect((await post(base)).status).toBe(401);
    await settle();
    expect(unhandled).toEqual([]);
  });
});

describe("createServer(createWebhookMiddleware(…)) never leaves a rejected promise", () => {
  it("answers 500 and reports it when onEvent throws", async () => {
    const rejections: WebhookRejection[] = [];
    const base = await serve({
      onEvent: () => {
        throw new Error("database down");
      },
      onRejected: (rejection) => rejections.push(rejection),
    });
    const headers = await signWebhook({ secret: SECRET, url: `${base}${PATH}`, body: EVENT });
    const answer = await post(base, headers);
    expect(answer).toEqual({
      status: 500,
      body: expect.objectContaining({ error: "WEBHOOK_HANDLER_FAILED" }) as unknown,
    });
    expect(rejections.map((r) => r.code)).toEqual(["WEBHOOK_HANDLER_FAILED"]);
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("keeps its answer and logs to the console when onRejected throws", async () => {
    const console = vi.spyOn(globalThis.console, "error").mockImplementation(ignore);
    const base = await serve({
      onRejected: () => {
        throw new Error("the logger is broken");
      },
    });
    const answer = await post(base);
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe("WEBHOOK_MISSING_HEADER");
    expect(console).toHaveBeenCalledWith(
      expect.stringContaining("onRejected threw while reporting WEBHOOK_MISSING_HEADER"),
      expect.any(Error),
    );
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("reports a request whose body stream breaks as WEBHOOK_RECEIVER_FAILED", async () => {
    const rejections: WebhookRejection[] = [];
    const reported = new Promise<void>((resolve) => {
      void serve({
        onRejected: (rejection) => {
          rejections.push(rejection);
          resolve();
        },
      }).then((base) => {
        // Declares 1000 bytes, sends 10, then hangs up: the request stream ends in an error.
        const { hostname, port } = new URL(base);
        const req = httpRequest({
          host: hostname,
          port,
          path: PATH,
          method: "POST",
          headers: { "Content-Length": "1000" },
        });
        req.on("error", ignore);
        req.write("0123456789");
        setTimeout(() => {
          req.destroy();
        }, 50);
      });
    });
    const gaveUp = new Promise((_, reject) => {
      setTimeout(() => {
        reject(new Error("onRejected was not told within 5 s"));
      }, 5_000).unref();
    });
    await Promise.race([reported, gaveUp]);
    expect(rejections.map((r) => [r.status, r.code])).toEqual([[500, "WEBHOOK_RECEIVER_FAILED"]]);
    expect(rejections[0]?.error).toBeInstanceOf(Error);
    await settle();
    expect(unhandled).toEqual([]);
  });
});
