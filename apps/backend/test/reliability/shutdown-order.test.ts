import { connect } from "node:net";
import type { RunningEmulator } from "@overture/platform-emulator/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import {
  freePort,
  liveClient,
  liveEnv,
  liveDatabase,
  startLiveBackend,
  startLiveEmulator,
  type LiveBackend,
} from "../support/live.ts";

/**
 * A raw HTTP/1.1 request sent with `Expect: 100-continue`: Node answers "100 Continue" only once
 * it has parsed the headers and handed the request to the app, so after `accepted` the request
 * is in flight for sure. Its body goes out when `finish` is called.
 */
function requestInFlight(port: number, path: string, body: string) {
  const socket = connect(port, "127.0.0.1");
  let answer = "";
  socket.setEncoding("utf8");
  const accepted = new Promise<void>((resolve) => {
    socket.on("data", (chunk: string) => {
      answer += chunk;
      if (answer.startsWith("HTTP/1.1 100")) resolve();
    });
  });
  const closed = new Promise<string>((resolve) => {
    socket.on("close", () => {
      resolve(answer);
    });
    socket.on("error", () => undefined);
  });
  socket.once("connect", () => {
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Expect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
  });
  return {
    accepted,
    finish() {
      socket.write(body);
    },
    /** Everything the server sent, once it closed the connection. */
    closed,
  };
}

/**
 * On SIGTERM the backend stops accepting connections, ends live
 * streams with a retry hint, lets requests already in flight finish with the database still
 * open, cuts what remains, and only then stops its workers and closes the database. Before,
 * the database closed first: in-flight requests got "database unavailable" and the log filled
 * with "PGlite is closed".
 */
describeEachDriver("graceful shutdown [real sockets]", (driver) => {
  let emu: RunningEmulator;
  let live: LiveBackend;
  let port: number;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    port = await freePort();
    emu = await startLiveEmulator(`http://127.0.0.1:${port}`);
    const { database, drop } = await liveDatabase(driver);
    cleanup = drop;
    live = await startLiveBackend(liveEnv(port, emu.url, database, { LOG_LEVEL: "info" }));
  });
  afterAll(async () => {
    await live.close();
    await emu.close();
    await cleanup();
  });

  it("ends live streams, finishes in-flight requests on an open database, then closes it", async () => {
    const client = liveClient(live.url);
    const session = await client.signIn();
    const events = await client.request("/api/events", { session });
    expect(events.status).toBe(200);
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    let streamed = "";
    const streamEnded = (async () => {
      const decoder = new TextDecoder();
      for (let read = await reader.read(); !read.done; read = await reader.read())
        streamed += decoder.decode(read.value, { stream: true });
    })();

    // A webhook whose body is still arriving when the shutdown starts: it needs the database.
    const webhook = requestInFlight(port, "/webhooks/platform?k=no-such-key", '{"event_id":"e"}');
    await webhook.accepted;

    const closing = live.server.close();
    await streamEnded;
    expect(streamed).toMatch(/^retry: \d+$/m);
    // No new connection is accepted while the drain goes on.
    await expect(fetch(`${live.url}/healthz`)).rejects.toThrow();

    webhook.finish();
    const finishedAt = Date.now();
    const answer = await webhook.closed;
    // Its connection is closed once answered, not kept open until the drain's 10 s bound cuts
    // it (Node keeps an answered keep-alive connection open for HTTP_KEEP_ALIVE_SECONDS).
    expect(Date.now() - finishedAt).toBeLessThan(5_000);
    // Answered by the intake with the database open (an unknown key is a 404 after a lookup),
    // not the 503 "database unavailable" of a closed database.
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 404 /);
    expect(answer).toContain("unknown_task");

    await closing;
    const errors = live.logs.filter((line) =>
      /PGlite is closed|database unavailable|Cannot use a pool after calling end/i.test(line),
    );
    expect(errors).toEqual([]);
  });
});
