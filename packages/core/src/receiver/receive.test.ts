import { describe, expect, it } from "vitest";
import { signWebhook } from "../webhook/index.ts";
import { recordingHash } from "../webhook/sync-hmac.fixtures.ts";
import { bodyBytes, vectorCases, type VectorCase } from "../webhook/vectors.fixtures.ts";
import {
  WEBHOOK_BODY_TOO_LARGE,
  WEBHOOK_EVENT_INVALID,
  WEBHOOK_HANDLER_FAILED,
  WEBHOOK_METHOD_NOT_ALLOWED,
  createWebhookHandler,
  type WebhookReceiverOptions,
  type WebhookRejection,
} from "./index.ts";
import { createWebhookMiddleware, type NodeRequestLike } from "./node.ts";

const vectors = vectorCases;
// node:crypto's one-shot `hash` in shape (core's tests import nothing from Node; the pack test
// runs the README's receiver with the real one).
const { hash } = recordingHash();
const bytesOf = bodyBytes;
type Vector = VectorCase;

/**
 * The status and error code a receiver must answer for a vector: the vector's verdict, then the
 * receiver's own rule that a success carries its result link (the vectors test signatures, and
 * one of their bodies is a success without a link).
 */
function expectedAnswer(v: Vector): { status: number; error?: string | undefined } {
  if (!v.expected.ok) return { status: 401, error: v.expected.code };
  if (v.expected.body_reading !== "json") return { status: 400, error: v.expected.body_reading };
  const event = JSON.parse(new TextDecoder().decode(bytesOf(v))) as {
    status?: string;
    output?: { file_url?: string; url?: string };
  };
  if (event.status === "success" && !event.output?.file_url && !event.output?.url) {
    return { status: 400, error: WEBHOOK_EVENT_INVALID };
  }
  return { status: 200 };
}

const receiverFor = (v: Vector, events: unknown[]): WebhookReceiverOptions => ({
  secrets: v.secrets,
  now: () => v.now,
  toleranceMs: v.tolerance_ms,
  onEvent: (event) => {
    events.push(event);
  },
});

async function* chunks(parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield await Promise.resolve(part);
}

/** A Node request as `http` gives it: the raw target, lowercase header names, a body stream. */
function nodeRequest(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: Uint8Array,
): NodeRequestLike {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method,
    url,
    headers: lower,
    // Two chunks, as a socket may deliver them.
    [Symbol.asyncIterator]: () => chunks([body.subarray(0, 3), body.subarray(3)]),
  };
}

function nodeResponse() {
  const res = { statusCode: 0, headers: {} as Record<string, string>, body: "" };
  return Object.assign(res, {
    setHeader(name: string, value: string) {
      res.headers[name.toLowerCase()] = value;
    },
    end(body?: string) {
      res.body = body ?? "";
    },
  });
}

const targetOf = (url: string) => url.slice(url.indexOf("/", "https://".length));

describe("the receivers pass the published test vectors", () => {
  it.each(vectors)("$id: fetch handler", async (v) => {
    const events: unknown[] = [];
    const handle = createWebhookHandler(receiverFor(v, events));
    const request = new Request(v.url, { method: "POST", headers: v.headers, body: bytesOf(v) });
    const response = await handle(request);
    const want = expectedAnswer(v);
    expect(response.status).toBe(want.status);
    const body = (await response.json()) as { error?: string };
    if (want.error) expect(body.error).toBe(want.error);
    expect(events).toHaveLength(want.status === 200 ? 1 : 0);
  });

  /** The middleware answers the vector as the spec says, with `extra` settings. */
  async function middlewareAnswers(v: Vector, extra: Partial<WebhookReceiverOptions> = {}) {
    const events: unknown[] = [];
    const middleware = createWebhookMiddleware({ ...receiverFor(v, events), ...extra });
    const res = nodeResponse();
    await middleware(nodeRequest("POST", targetOf(v.url), v.headers, bytesOf(v)), res);
    const want = expectedAnswer(v);
    expect(res.statusCode).toBe(want.status);
    if (want.error) expect((JSON.parse(res.body) as { error?: string }).error).toBe(want.error);
    expect(events).toHaveLength(want.status === 200 ? 1 : 0);
  }

  it.each(vectors)("$id: Node middleware, with the request target as received", (v) =>
    middlewareAnswers(v),
  );

  it.each(vectors)("$id: Node middleware verifying with a one-shot hash", (v) =>
    middlewareAnswers(v, { hash }),
  );
});

const SECRET = "receiver-test-secret";
const NOW = 1_767_225_600_000;
const URL_CALLED = "https://receiver.example/webhooks/platform?k=abc";
const EVENT = {
  event_id: "e1",
  task_id: "t1",
  status: "success",
  output: { file_url: "https://f.example/a.mp3" },
};

async function signed(
  body: string | Uint8Array<ArrayBuffer> = JSON.stringify(EVENT),
  secret = SECRET,
) {
  const headers = await signWebhook({ secret, url: URL_CALLED, body, timestamp: NOW - 1000 });
  return new Request(URL_CALLED, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body,
  });
}

function receiver(overrides: Partial<WebhookReceiverOptions> = {}) {
  const events: unknown[] = [];
  const rejections: WebhookRejection[] = [];
  const handle = createWebhookHandler({
    secrets: SECRET,
    now: () => NOW,
    onEvent: (event) => {
      events.push(event);
    },
    onRejected: (rejection) => rejections.push(rejection),
    ...overrides,
  });
  return { handle, events, rejections };
}

describe("createWebhookHandler", () => {
  it("hands the typed, validated event to onEvent and answers 200", async () => {
    const { handle, events } = receiver();
    const response = await handle(await signed());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "accepted", event_id: "e1" });
    expect(events).toEqual([EVENT]);
  });

  it("accepts any of several secrets (rotation)", async () => {
    const { handle } = receiver({ secrets: ["new-secret", SECRET] });
    expect((await handle(await signed())).status).toBe(200);
  });

  it("answers 401 with the code and tells onRejected the diagnosed cause", async () => {
    const { handle, rejections } = receiver({ secrets: "new-secret", formerSecrets: [SECRET] });
    const response = await handle(await signed());
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "WEBHOOK_SIGNATURE_MISMATCH" });
    expect(rejections[0]?.diagnoses?.[0]?.code).toBe("FORMER_SECRET_MATCHES");
    expect(JSON.stringify(rejections)).not.toContain(SECRET);
  });

  it("tells the sender of a mismatch the code and a generic message, onRejected the diagnosis", async () => {
    const { handle, rejections } = receiver({ secrets: "new-secret", formerSecrets: [SECRET] });
    const response = await handle(await signed());
    expect(await response.json()).toEqual({
      error: "WEBHOOK_SIGNATURE_MISMATCH",
      message: "The signature could not be verified",
    });
    expect(rejections[0]?.message).toContain("matches none of the 1 secret(s)");
    expect(rejections[0]?.message).toContain("formerSecrets[0]");
  });

  it("tells the sender of a stale delivery the code and a generic message, not the tolerance", async () => {
    const { handle, rejections } = receiver({ now: () => NOW + 10 * 60_000 });
    const response = await handle(await signed());
    expect(await response.json()).toEqual({
      error: "WEBHOOK_TIMESTAMP_OUT_OF_RANGE",
      message: "X-Sign-Timestamp is outside the accepted window",
    });
    expect(rejections[0]?.message).toContain("beyond the tolerance of 300000 ms");
  });

  it("verifies with a one-shot hash: accepts, and diagnoses a former secret", async () => {
    const recorder = recordingHash();
    expect((await receiver({ hash: recorder.hash }).handle(await signed())).status).toBe(200);
    expect(recorder.calls.length).toBeGreaterThan(0);
    const { handle, rejections } = receiver({ hash, secrets: "new", formerSecrets: [SECRET] });
    expect((await handle(await signed())).status).toBe(401);
    expect(rejections[0]?.diagnoses?.[0]?.code).toBe("FORMER_SECRET_MATCHES");
  });

  it("refuses to be created with both hash and hmac", () => {
    expect(() => receiver({ hash, hmac: () => "0".repeat(64) })).toThrow(TypeError);
  });

  it("answers a delivery outside the timestamp window with 401", async () => {
    const { handle } = receiver({ now: () => NOW + 10 * 60_000 });
    const response = await handle(await signed());
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "WEBHOOK_TIMESTAMP_OUT_OF_RANGE" });
  });

  it("skips onEvent for an event seen before and answers 200", async () => {
    const { handle, events } = receiver({ seen: (id) => id === "e1" });
    const response = await handle(await signed());
    expect(await response.json()).toEqual({ status: "duplicate", event_id: "e1" });
    expect(events).toEqual([]);
  });

  it("answers 500 when onEvent throws, so the platform delivers again", async () => {
    const failure = new Error("database down");
    const { handle, rejections } = receiver({ onEvent: () => Promise.reject(failure) });
    const response = await handle(await signed());
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).toContain(WEBHOOK_HANDLER_FAILED);
    expect(body).not.toContain("database down");
    expect(rejections[0]?.error).toBe(failure);
  });

  it("answers 400 for a signed JSON body that is not an event", async () => {
    const { handle, events } = receiver();
    const response = await handle(await signed(JSON.stringify({ status: "success" })));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe(WEBHOOK_EVENT_INVALID);
    expect(body.message).toContain("event_id");
    expect(events).toEqual([]);
  });

  it("answers 413 for a body over maxBodyBytes, declared or streamed", async () => {
    const { handle } = receiver({ maxBodyBytes: 10 });
    const response = await handle(await signed());
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: WEBHOOK_BODY_TOO_LARGE });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("x".repeat(20)));
        controller.close();
      },
    });
    const undeclared = new Request(URL_CALLED, {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect((await handle(undeclared)).status).toBe(413);
  });

  it("answers 405 to anything but POST", async () => {
    const { handle } = receiver();
    const response = await handle(new Request(URL_CALLED));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.json()).toMatchObject({ error: WEBHOOK_METHOD_NOT_ALLOWED });
  });
});

describe("createWebhookMiddleware", () => {
  const middleware = (events: unknown[]) =>
    createWebhookMiddleware({
      secrets: SECRET,
      now: () => NOW,
      onEvent: (e) => void events.push(e),
    });

  it("takes the raw bytes express.raw() left in req.body", async () => {
    const events: unknown[] = [];
    const request = await signed();
    const body = new Uint8Array(await request.arrayBuffer());
    const req = {
      ...nodeRequest(
        "POST",
        "/webhooks/platform?k=abc",
        Object.fromEntries(request.headers),
        new Uint8Array(),
      ),
      body,
    };
    const res = nodeResponse();
    await middleware(events)(req, res);
    expect(res.statusCode).toBe(200);
    expect(events).toEqual([EVENT]);
  });

  it("refuses a body a JSON parser already parsed, saying how to mount it", async () => {
    const req = { ...nodeRequest("POST", "/hook", {}, new Uint8Array()), body: { event_id: "e1" } };
    const res = nodeResponse();
    await middleware([])(req, res);
    expect(res.statusCode).toBe(500);
    expect(res.body).toContain("express.raw()");
  });
});
