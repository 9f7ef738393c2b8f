import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningEmulator } from "@overture/platform-emulator/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freePort,
  liveClient,
  liveEnv,
  sleep,
  startLiveBackend,
  startLiveEmulator,
  waitFor,
  type LiveBackend,
} from "../support/live.ts";
import { rawConnect } from "../support/raw-http.ts";

/** The log lines (parsed) whose message is `msg`. */
const linesOf = (live: LiveBackend, msg: string) =>
  live.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.msg === msg);

/**
 * Failures that are not the database's: a platform that refuses connections, and a client that
 * hangs up halfway through its request body. Each gets its own answer and log line; neither is
 * reported as a database outage (a socket error code found down an error's `cause` chain was
 * taken for one). Real sockets, PGlite: the driver does not matter here.
 */
describe("failures that are not the database's [real sockets]", () => {
  let dir: string;
  let emu: RunningEmulator;
  let live: LiveBackend;
  let session: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "overture-upstream-"));
    const port = await freePort();
    emu = await startLiveEmulator(`http://127.0.0.1:${port}`);
    live = await startLiveBackend(
      liveEnv(port, emu.url, { dataDir: join(dir, "pglite") }, { LOG_LEVEL: "info" }),
    );
    const client = liveClient(live.url);
    session = await client.signIn();
    await client.prepareTasks(session, emu);
  });
  afterAll(async () => {
    await live.close();
    await emu.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it("logs a client that hangs up mid-upload as such, not as a database outage", async () => {
    for (const target of ["/api/tasks", "/webhooks/platform?k=x"]) {
      const exchange = await rawConnect(Number(new URL(live.url).port));
      exchange.write(
        `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${session}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{"prompt": "lofi`,
      );
      await sleep(200);
      exchange.destroy();
    }
    await waitFor(
      "both requests logged",
      () => linesOf(live, "client closed the request").length === 2,
      2_000,
    );
    expect(linesOf(live, "database unavailable")).toEqual([]);
    expect(linesOf(live, "unhandled error")).toEqual([]);
  });

  it("answers 503 platform_unavailable when the platform refuses connections, with its own log line", async () => {
    const client = liveClient(live.url);
    // A task first, so the proxy token is cached and the calls below reach the platform itself.
    const running = await client.createTask(session, "lofi");
    await emu.close();
    for (const [path, init] of [
      ["/api/quota", {}],
      ["/api/tasks", { method: "POST", body: JSON.stringify({ prompt: "lofi", duration: 30 }) }],
      [`/api/tasks/${running.id}/cancel`, { method: "POST" }],
      ["/api/namespaces/demo/tokens", {}],
    ] as const) {
      const response = await client.request(path, { session, ...init });
      const body = (await response.json()) as { error: string };
      expect(`${path} ${response.status} ${body.error}`).toBe(`${path} 503 platform_unavailable`);
    }
    expect((await client.request("/readyz")).status).toBe(200);
    expect(linesOf(live, "platform unavailable").length).toBeGreaterThanOrEqual(3);
    expect(linesOf(live, "database unavailable")).toEqual([]);
  });
});
