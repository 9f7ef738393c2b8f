import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { signWebhook } from "@overture/core/webhook";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../../src/lib/errors.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createMetrics } from "../../src/lib/metrics.ts";
import type { Delivery, IntakeAnswer } from "../../src/services/intake/index.ts";
import { webhookEdge } from "../../src/server/webhook-edge.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { createTask, setUpTaskUser } from "../support/tasks.ts";

async function serveNode(listener: (req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Answers 599 for whatever the edge leaves to the app. */
const serveEdge = (edge: ReturnType<typeof webhookEdge>) =>
  serveNode((req, res) => {
    if (!edge(req, res)) res.writeHead(599).end();
  });

/** The app alone on a Node server: what a delivery the edge leaves to it gets. */
function serveApp(app: TestBackend["app"]) {
  const listener = getRequestListener(app.fetch);
  return serveNode((req, res) => void listener(req, res));
}

/** Every header of an answer but those Node adds to any response on its own. */
const headersOf = (response: Response) =>
  [...response.headers].filter(([name]) => !["date", "connection", "keep-alive"].includes(name));

const HEADERS = [
  "content-type",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "cross-origin-resource-policy",
];

describeEachDriver("webhook edge", (driver) => {
  let t: TestBackend;
  let secret: string;
  let session: string;
  let edge: Awaited<ReturnType<typeof serveEdge>>;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    const user = await setUpTaskUser(t, { webhookSecret: true });
    secret = user.secret ?? "";
    session = user.session;
    t.emu.control.setQuota(user.namespace, 100);
    edge = await serveEdge(t.backend.edge);
  });
  afterAll(async () => {
    await edge.close();
    await t.close();
  });

  async function signed(url: string, eventId: string, platformId: string) {
    const body = JSON.stringify({
      event_id: eventId,
      task_id: platformId,
      status: "in_progress",
      output: {},
      usage_info: {},
    });
    const headers = await signWebhook({ secret, url, body, now: () => t.clock.now() });
    return { body, headers: { ...headers, "Content-Type": "application/json" } };
  }

  it("answers a signed delivery as the app's route does, once committed", async () => {
    const task = await createTask(t, session);
    const callback = t.emu.control.getTask(task.platform_task_id ?? "")?.webhook_url ?? "";
    const query = new URL(callback).search;
    const platformId = task.platform_task_id ?? "";

    const viaApp = await t.app.request(callback, {
      method: "POST",
      ...(await signed(callback, "evt_edge_app", platformId)),
    });
    const viaEdge = await fetch(`${edge.origin}/webhooks/platform${query}`, {
      method: "POST",
      ...(await signed(callback, "evt_edge_node", platformId)),
    });
    const again = await fetch(`${edge.origin}/webhooks/platform${query}`, {
      method: "POST",
      ...(await signed(callback, "evt_edge_node", platformId)),
    });

    expect(viaEdge.status).toBe(viaApp.status);
    expect(await viaEdge.json()).toEqual(await viaApp.json());
    for (const name of HEADERS) expect(viaEdge.headers.get(name)).toBe(viaApp.headers.get(name));
    expect(viaEdge.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await again.json()).toEqual({ status: "duplicate" });
  });

  it("sends the same headers and body as the app's route for the same answer, 2xx and 4xx", async () => {
    const app = await serveApp(t.app);
    try {
      const task = await createTask(t, session);
      const callback = t.emu.control.getTask(task.platform_task_id ?? "")?.webhook_url ?? "";
      const query = new URL(callback).search;
      const platformId = task.platform_task_id ?? "";
      // Each path gets its own event, so both store one (200 accepted), then see it again.
      const deliveries: [string, string, (path: string) => Promise<RequestInit>][] = [
        ["a new event (200)", query, (path) => signed(callback, `evt_same_${path}`, platformId)],
        [
          "an event stored already (200)",
          query,
          (path) => signed(callback, `evt_same_${path}`, platformId),
        ],
        [
          "a signature that does not match (401)",
          query,
          async (path) => {
            const delivery = await signed(callback, `evt_forged_${path}`, platformId);
            return { ...delivery, body: delivery.body.replace("in_progress", "success") };
          },
        ],
        ["an unknown key (404)", "?k=no-such-key", (path) => signed(callback, path, platformId)],
      ];
      for (const [what, search, init] of deliveries) {
        const send = async (path: string, origin: string) => {
          const request = await init(path);
          return fetch(`${origin}/webhooks/platform${search}`, {
            ...request,
            method: "POST",
            headers: { ...(request.headers as Record<string, string>), "X-Request-Id": what },
          });
        };
        const viaApp = await send("app", app.origin);
        const viaEdge = await send("edge", edge.origin);
        expect(viaApp.status, what).toBe(Number(/\((\d+)\)/.exec(what)?.[1]));
        expect(viaEdge.status, what).toBe(viaApp.status);
        expect(headersOf(viaEdge), what).toEqual(headersOf(viaApp));
        expect(await viaEdge.json(), what).toEqual(await viaApp.json());
      }
    } finally {
      await app.close();
    }
  });
});

describe("webhook edge, in front of the app", () => {
  const received: Delivery[] = [];
  let outcome: () => Promise<IntakeAnswer> = () =>
    Promise.resolve({ status: 200, body: { status: "accepted" } });
  const edgeOf = () =>
    webhookEdge({
      config: { webhook: { maxBodyBytes: 1_024 } as never, publicUrl: "https://overture.test" },
      lifecycle: { shuttingDown: false },
      logger: createLogger("silent"),
      metrics: createMetrics(),
      outages: { report: () => undefined },
      services: {
        webhookIntake: {
          handle: (delivery) => {
            received.push(delivery);
            return outcome();
          },
        },
      },
    });
  let edge: Awaited<ReturnType<typeof serveEdge>>;
  beforeAll(async () => {
    edge = await serveEdge(edgeOf());
  });
  afterAll(() => edge.close());

  const post = (path: string, init: RequestInit = {}) =>
    fetch(`${edge.origin}${path}`, { method: "POST", body: "{}", ...init });

  it("hands a plain delivery to the intake with the public URL, the headers and the bytes", async () => {
    const response = await post("/webhooks/platform?k=abc", { headers: { "X-Signature": "s" } });
    expect(response.status).toBe(200);
    const delivery = received.at(-1);
    expect(delivery?.url).toBe("https://overture.test/webhooks/platform?k=abc");
    expect(delivery?.headers["x-signature" as never]).toBe("s");
    expect(new TextDecoder().decode(delivery?.body)).toBe("{}");
  });

  it.each([
    ["another method", "/webhooks/platform?k=abc", { method: "PUT" }],
    ["another path", "/webhooks/platformx?k=abc", {}],
    ["a repeated key", "/webhooks/platform?k=a&k=b", {}],
    ["an escaped query", "/webhooks/platform?%6B=abc", {}],
    ["a body over the limit", "/webhooks/platform?k=abc", { body: "x".repeat(1_025) }],
    [
      "a chunked body",
      "/webhooks/platform?k=abc",
      {
        body: new Blob(["{}"]).stream(),
        duplex: "half",
      },
    ],
  ])("leaves %s to the app", async (_, path, init) => {
    expect((await post(path, init as RequestInit)).status).toBe(599);
  });

  it("answers 503 with Retry-After while the database is unavailable", async () => {
    outcome = () => Promise.reject(new DatabaseUnavailableError("down"));
    const response = await post("/webhooks/platform?k=abc");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(((await response.json()) as { error: string }).error).toBe("database_unavailable");
  });
});
