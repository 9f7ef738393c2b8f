import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningEmulator } from "@overture/platform-emulator/server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_BODY_LIMIT_BYTES } from "../../src/middleware/body-limit.ts";
import { createRandom, fuzzSeed } from "../support/fuzz.ts";
import {
  freePort,
  liveClient,
  liveEnv,
  startLiveBackend,
  startLiveEmulator,
  waitFor,
  type LiveBackend,
} from "../support/live.ts";
import { rawConnect, rawExchange, trickle } from "../support/raw-http.ts";
import { selectRows } from "../support/sql.ts";

const REQUEST_TIMEOUT_SECONDS = 2;
// Above Node's own default (5 s), so that the test below tells the setting from the default.
const KEEP_ALIVE_SECONDS = 7;
const SLOW_CLIENTS = 20;

/**
 * Clients over real sockets that no fetch would be: slow ones (slow-loris: headers or a body
 * trickled a byte at a time) and broken ones (malformed HTTP framing). The server must cut the
 * slow ones after `HTTP_REQUEST_TIMEOUT_SECONDS` (2 s here; 30 s by default) and keep serving
 * everyone else meanwhile. The database does not matter here: one driver (PGlite) is enough.
 */
describe("slow and broken clients [real sockets]", () => {
  let dir: string;
  let emu: RunningEmulator;
  let live: LiveBackend;
  let port: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "overture-slow-"));
    port = await freePort();
    emu = await startLiveEmulator(`http://127.0.0.1:${port}`, { clock: "manual" });
    live = await startLiveBackend(
      liveEnv(
        port,
        emu.url,
        { dataDir: join(dir, "pglite") },
        {
          LOG_LEVEL: "warn",
          HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
          HTTP_KEEP_ALIVE_SECONDS: String(KEEP_ALIVE_SECONDS),
        },
      ),
    );
  });
  afterAll(async () => {
    await live.close();
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("cuts clients that trickle a webhook body, and serves and stores real deliveries meanwhile", async () => {
    const client = liveClient(live.url);
    const session = await client.signIn();
    await client.prepareTasks(session, emu);
    const task = await client.createTask(session, "served during a slow-loris");
    const callback = emu.control.getTask(task.platform_task_id ?? "")?.webhook_url ?? "";
    const path = callback.slice(callback.indexOf("/webhooks/"));

    const slow = await Promise.all(Array.from({ length: SLOW_CLIENTS }, () => rawConnect(port)));
    const head = (body: number) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nX-Sign-Timestamp: ${Date.now()}\r\nX-Signature: ${"0".repeat(64)}\r\nContent-Length: ${body}\r\n\r\n`;
    const trickling = slow.map((exchange) => {
      exchange.write(head(10_000));
      return trickle(exchange, `{"event_id":"evt_slow","pad":"${"x".repeat(9_000)}"}`, 100);
    });

    // While they hold their sockets: health checks answer, and the platform's callbacks for the
    // task (delivered over their own connections) are verified and stored.
    expect((await client.request("/healthz")).status).toBe(200);
    await emu.control.clock.advance(10_000);
    const done = await client.listTasks(session);
    expect(done.find((t) => t.id === task.id)?.status).toBe("success");
    expect(slow.every((s) => !s.isClosed)).toBe(true);

    const sent = await Promise.all(trickling);
    await Promise.all(slow.map((s) => s.closed));
    // Each was cut long before its 10,000 bytes, most with a 408 (Node's answer to the timeout).
    expect(Math.max(...sent)).toBeLessThan(10_000);
    expect(slow.filter((s) => s.status === 408).length).toBeGreaterThan(SLOW_CLIENTS / 2);
    expect(slow.some((s) => s.status !== undefined && s.status !== 408)).toBe(false);
    const stored = await selectRows<{ n: number }>(
      live.backend.deps.db,
      sql`select count(*)::int as n from webhook_events where event_id = 'evt_slow'`,
    );
    expect(stored[0]?.n).toBe(0);
    expect((await client.request("/healthz")).status).toBe(200);
  }, 60_000);

  it("cuts a client that trickles its headers", async () => {
    const exchange = await rawConnect(port);
    const sent = await trickle(
      exchange,
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n${"X-Slow: 1\r\n".repeat(500)}\r\n`,
      50,
      4,
    );
    await exchange.closed;
    expect(sent).toBeLessThan(5_000);
    expect([408, undefined]).toContain(exchange.status);
  }, 30_000);

  it.each([
    ["/webhooks/platform?k=x", "the webhook limit"],
    ["/auth/token", "the API limit"],
  ])(
    "answers 413 to a body declared larger than %s at once, without waiting for it",
    async (target) => {
      const exchange = await rawConnect(port);
      exchange.write(
        `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{`,
      );
      await waitFor("an answer", () => exchange.status !== undefined, 10_000, 20);
      expect(exchange.status).toBe(413);
      expect(exchange.received).toContain("payload_too_large");
      exchange.destroy();
    },
  );

  it("keeps an idle keep-alive connection open for HTTP_KEEP_ALIVE_SECONDS, past Node's 5 s default", async () => {
    const exchange = await rawConnect(port);
    const request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    const answers = () => exchange.received.match(/HTTP\/1\.1 200 /g)?.length ?? 0;
    exchange.write(request);
    await waitFor("the first answer", () => answers() === 1, 5_000, 20);
    // Idle past Node's default keep-alive, and past the request and headers timeouts (2 s).
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect(exchange.isClosed).toBe(false);
    exchange.write(request);
    await waitFor("the second answer", () => answers() === 2, 5_000, 20);
    exchange.destroy();
  }, 20_000);

  it("answers 413 to a chunked body that grows past the API limit", async () => {
    const exchange = await rawConnect(port);
    exchange.write(
      "POST /auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    const chunk = "x".repeat(16_384);
    for (let sent = 0; sent <= API_BODY_LIMIT_BYTES && !exchange.isClosed; sent += chunk.length) {
      exchange.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await waitFor("an answer", () => exchange.status !== undefined, 10_000, 20);
    expect(exchange.status).toBe(413);
    exchange.destroy();
  });

  it("answers malformed HTTP framing with a 4xx or a closed connection, never a 5xx, and keeps serving", async () => {
    const seed = fuzzSeed();
    console.log(`[fuzz] HTTP framing: seed ${seed} (replay: OVERTURE_FUZZ_SEED=${seed})`);
    const r = createRandom(seed);
    const line = () =>
      r.pick([
        "POST /webhooks/platform?k=x HTTP/1.1",
        "GET /healthz HTTP/1.1",
        `GET /${"a".repeat(r.int(10_000, 100_000))} HTTP/1.1`,
        `${r.string(8, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")} / HTTP/1.1`,
        "GET / HTTP/9.9",
        "GET /healthz",
        r.string(60),
      ]);
    const header = () =>
      r.pick([
        "Host: 127.0.0.1",
        `Content-Length: ${r.pick(["-1", "abc", "1, 2", "99999999999999999999", "0x10", String(r.int(0, 50))])}`,
        `Transfer-Encoding: ${r.pick(["chunked", "gzip, chunked", "chunked, identity", "x"])}`,
        `${r.string(10, "abc:é\u0000 ")}: ${r.string(20)}`,
        `X-Big: ${"b".repeat(r.int(10_000, 70_000))}`,
        "Host: a\r\nHost: b",
        `Content-Type: ${r.string(20)}`,
      ]);
    const statuses = new Map<string, number>();
    for (let i = 0; i < 150; i += 1) {
      const headers = Array.from({ length: r.int(0, 5) }, header).join("\r\n");
      const body = r.chance(0.5) ? r.pick(["0\r\n\r\n", "zz\r\nxx\r\n", r.string(100), "{}"]) : "";
      const request = `${line()}\r\n${headers}${headers ? "\r\n" : ""}\r\n${body}`;
      const { status } = await rawExchange(port, Buffer.from(request, "latin1"), 3_000);
      const key = String(status ?? "closed");
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      expect(
        status === undefined || status < 500,
        `case ${i} (seed ${seed}) answered ${status}`,
      ).toBe(true);
    }
    console.log(`[fuzz] HTTP framing: answers ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect((await fetch(`${live.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
