import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { nodeFetch } from "../../src/server/listen.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { CHROME_ORIGIN, startTestBackend, type TestBackend } from "../support/harness.ts";
import { readSse } from "../support/sse.ts";
import { createTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

/**
 * Live events over a real Node HTTP server: the backend serves them straight on the Node
 * response (server/sse-takeover.ts), which in-process `app.request` tests never reach.
 */
describeEachDriver("live task events over Node HTTP", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  let server: ServerType;
  let origin: string;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t, { webhookSecret: true });
    server = await new Promise<ServerType>((resolve) => {
      const listening = serve(
        { fetch: nodeFetch(t.backend), hostname: "127.0.0.1", port: 0 },
        () => {
          resolve(listening);
        },
      );
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const connected = () => t.backend.deps.services.liveEvents.size;
  /** Waits for the server to notice disconnects (a socket close is asynchronous). */
  async function settled(count: number): Promise<void> {
    while (connected() !== count) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  it("answers with every header the middleware sets, then streams the user's task changes", async () => {
    const response = await fetch(`${origin}/api/events`, {
      headers: { Authorization: `Bearer ${user.session}`, Origin: CHROME_ORIGIN },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("access-control-allow-origin")).toBe(CHROME_ORIGIN);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const stream = readSse(response);
    expect((await stream.next())?.retry).toBe(3000);
    expect((await stream.next())?.event).toBe("ready");
    const task = await createTask(t, user.session);
    expect((await stream.nextTask()).task.id).toBe(task.id);
    await stream.close();
  });

  it("forgets a stream once its client disconnects", async () => {
    await settled(0);
    const response = await fetch(`${origin}/api/events`, {
      headers: { Authorization: `Bearer ${user.session}` },
    });
    const stream = readSse(response);
    await stream.next();
    await stream.next();
    expect(connected()).toBe(1);
    await stream.close();
    await settled(0);
    expect(connected()).toBe(0);
  });

  it("replays from Last-Event-ID before going live", async () => {
    const first = readSse(
      await fetch(`${origin}/api/events`, { headers: { Authorization: `Bearer ${user.session}` } }),
    );
    await first.next();
    const ready = await first.next();
    await first.close();
    const task = await createTask(t, user.session);
    const resumed = readSse(
      await fetch(`${origin}/api/events`, {
        headers: { Authorization: `Bearer ${user.session}`, "Last-Event-ID": ready?.id ?? "0" },
      }),
    );
    expect((await resumed.next())?.retry).toBe(3000);
    const replayed = await resumed.nextTask();
    expect(replayed.task.id).toBe(task.id);
    expect(replayed.id).toBeGreaterThan(Number(ready?.id));
    await resumed.close();
  });
});
