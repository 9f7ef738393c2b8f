import { describe, expect, it } from "vitest";
import { isPlatformError } from "../errors/index.ts";
import { rejectionOf, setupClient } from "./client.fixtures.ts";
import { connectionReset, createFakeFetch, json } from "../transport/fake-fetch.fixtures.ts";
import { createPlatformClient } from "./platform-client.ts";
import type { TaskWithId } from "./tasks.ts";

const task = (status: string, extra: Record<string, unknown> = {}) =>
  json(200, { task_id: "t1", status, ...extra });

async function collect(iterable: AsyncIterable<TaskWithId>): Promise<string[]> {
  const statuses: string[] = [];
  for await (const item of iterable) statuses.push(item.status);
  return statuses;
}

describe("waitForTask (spec 8 polling)", () => {
  it("polls until a terminal status and returns the terminal task", async () => {
    const { fake, client } = setupClient();
    fake.reply(
      task("waiting"),
      task("in_progress"),
      task("success", { output: { file_url: "u" } }),
    );
    expect(await client.waitForTask("tok", "t1")).toEqual({
      task_id: "t1",
      status: "success",
      output: { file_url: "u" },
    });
    expect(fake.requests.map((r) => r.url)).toEqual(
      Array(3).fill("http://api.test/api/v1/task/t1"),
    );
  });

  it("calls onChange with each status change, the first observation included", async () => {
    const { fake, client } = setupClient();
    fake.reply(task("waiting"), task("waiting"), task("in_progress"), task("success"));
    const seen: string[] = [];
    await client.waitForTask("tok", "t1", { onChange: (t) => seen.push(t.status) });
    expect(seen).toEqual(["waiting", "in_progress", "success"]);
  });

  it("returns a failed or cancelled task instead of throwing", async () => {
    const { fake, client } = setupClient();
    fake.reply(task("failure", { output: { error: "boom" } }));
    expect((await client.waitForTask("tok", "t1")).status).toBe("failure");
  });

  it("polls first at once, then after 5 s, backing off by 1.5 per unchanged poll up to 10 s", async () => {
    const { fake, clock, client } = setupClient({ random: () => 0 });
    fake.reply(task("waiting"), task("waiting"), task("waiting"), task("waiting"), task("success"));
    await client.waitForTask("tok", "t1");
    expect(clock.sleeps).toEqual([5000, 7500, 10_000, 10_000]);
  });

  it("goes back to 5 s after a change", async () => {
    const { fake, clock, client } = setupClient({ random: () => 0 });
    fake.reply(task("waiting"), task("waiting"), task("in_progress"), task("success"));
    await client.waitForTask("tok", "t1");
    expect(clock.sleeps).toEqual([5000, 7500, 5000]);
  });

  it("jitters the interval downwards but never below 5 s", async () => {
    const { fake, clock, client } = setupClient({ random: () => 0.999 });
    fake.reply(task("waiting"), task("waiting"), task("waiting"), task("success"));
    await client.waitForTask("tok", "t1");
    expect(clock.sleeps[0]).toBe(5000);
    expect(clock.sleeps[1]).toBeCloseTo(7500 * (1 - 0.2 * 0.999));
    expect(clock.sleeps[2]).toBeCloseTo(10_000 * (1 - 0.2 * 0.999));
  });

  it("takes a polling schedule from the options", async () => {
    const { fake, clock, client } = setupClient();
    fake.reply(task("waiting"), task("waiting"), task("success"));
    await client.waitForTask("tok", "t1", {
      poll: { initialIntervalMs: 1000, backoffFactor: 2, maxIntervalMs: 1500 },
    });
    expect(clock.sleeps).toEqual([1000, 1500]);
  });

  it("backs off further on transient errors, reports them, and keeps polling", async () => {
    const { fake, clock, client } = setupClient();
    fake.reply(task("waiting"), json(503, {}), connectionReset(), task("success"));
    const retried: string[] = [];
    await client.waitForTask("tok", "t1", { onRetry: (error) => retried.push(error.code) });
    expect(clock.sleeps).toEqual([5000, 10_000, 20_000]);
    expect(retried).toEqual(["PLATFORM_SERVER_ERROR", "PLATFORM_NETWORK_ERROR"]);
  });

  it("caps the back-off after errors", async () => {
    const { fake, clock, client } = setupClient();
    fake.reply(json(503, {}), json(503, {}), json(503, {}), json(503, {}), task("success"));
    await client.waitForTask("tok", "t1", { poll: { maxErrorIntervalMs: 20_000 } });
    expect(clock.sleeps).toEqual([10_000, 20_000, 20_000, 20_000]);
  });

  it("waits at least as long as Retry-After of a rate-limited poll", async () => {
    const { fake, clock, client } = setupClient();
    fake.reply(
      task("waiting"),
      json(429, { error: "rate_limited" }, { "Retry-After": "45" }),
      task("success"),
    );
    await client.waitForTask("tok", "t1");
    expect(clock.sleeps).toEqual([5000, 45_000]);
  });

  it("throws a non-transient error at once, naming the task", async () => {
    const { fake, client } = setupClient();
    fake.reply(task("waiting"), json(401, { error: "unauthorized" }));
    expect(await rejectionOf(client.waitForTask("tok", "t1"))).toMatchObject({
      code: "PLATFORM_UNAUTHORIZED",
      taskId: "t1",
    });
    expect(fake.requests).toHaveLength(2);
  });

  it("throws PLATFORM_INVALID_RESPONSE for a poll body without status", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, { task_id: "t1" }));
    expect(await rejectionOf(client.waitForTask("tok", "t1"))).toMatchObject({
      code: "PLATFORM_INVALID_RESPONSE",
      taskId: "t1",
    });
  });
});

describe("waitForTask: abort and deadline", () => {
  it("ends at once with PLATFORM_ABORTED, naming the task, when aborted during a sleep", async () => {
    const { fake, clock, client } = setupClient();
    const controller = new AbortController();
    clock.onSleep = () => {
      controller.abort();
    };
    fake.reply(task("waiting"));
    const error = await rejectionOf(client.waitForTask("tok", "t1", { signal: controller.signal }));
    expect(error).toMatchObject({ code: "PLATFORM_ABORTED", taskId: "t1" });
    expect(fake.requests).toHaveLength(1);
  });

  it("ends a real sleep at once when aborted (default sleep)", async () => {
    const fake = createFakeFetch();
    const controller = new AbortController();
    fake.reply(() => {
      setTimeout(() => {
        controller.abort();
      }, 0);
      return task("waiting");
    });
    const client = createPlatformClient({ baseUrl: "http://api.test", fetch: fake.fetch });
    // Without an abortable sleep this would sleep 5 s, then hit an empty fake and fail otherwise.
    expect(
      await rejectionOf(client.waitForTask("tok", "t1", { signal: controller.signal })),
    ).toMatchObject({
      code: "PLATFORM_ABORTED",
      taskId: "t1",
    });
  });

  it("sends no request when the signal has already aborted", async () => {
    const { fake, client } = setupClient();
    expect(
      await rejectionOf(client.waitForTask("tok", "t1", { signal: AbortSignal.abort() })),
    ).toMatchObject({ code: "PLATFORM_ABORTED", taskId: "t1" });
    expect(fake.requests).toHaveLength(0);
  });

  it("ends a pending poll with PLATFORM_ABORTED naming the task", async () => {
    const { fake, client } = setupClient();
    const controller = new AbortController();
    fake.reply(() => {
      controller.abort();
      return task("waiting");
    });
    expect(
      await rejectionOf(client.waitForTask("tok", "t1", { signal: controller.signal })),
    ).toMatchObject({
      code: "PLATFORM_ABORTED",
      taskId: "t1",
    });
  });

  it("throws PLATFORM_DEADLINE_EXCEEDED, naming the task and its last status, at timeoutMs", async () => {
    const { fake, clock, client } = setupClient();
    fake.reply(task("in_progress"), task("in_progress"));
    const error = await rejectionOf(client.waitForTask("tok", "t1", { timeoutMs: 12_000 }));
    expect(error).toMatchObject({ code: "PLATFORM_DEADLINE_EXCEEDED", taskId: "t1" });
    expect((error as Error).message).toContain("last status: in_progress");
    expect(clock.sleeps).toEqual([5000, 7000]);
  });

  it("counts the sleeps against the deadline", async () => {
    const { fake, clock, client } = setupClient();
    fake.reply(task("waiting"));
    await rejectionOf(client.waitForTask("tok", "t1", { timeoutMs: 3000 }));
    expect(clock.sleeps).toEqual([3000]);
    expect(fake.requests).toHaveLength(1);
  });

  it("takes an absolute deadline on the client's clock over timeoutMs", async () => {
    const { fake, clock, client } = setupClient();
    fake.reply(task("waiting"));
    await rejectionOf(
      client.waitForTask("tok", "t1", { deadline: clock.now() + 2000, timeoutMs: 60_000 }),
    );
    expect(clock.sleeps).toEqual([2000]);
  });

  it("throws PLATFORM_DEADLINE_EXCEEDED when the deadline cuts a pending poll", async () => {
    const { fake, client } = setupClient();
    fake.reply("hang");
    expect(await rejectionOf(client.waitForTask("tok", "t1", { timeoutMs: 5 }))).toMatchObject({
      code: "PLATFORM_DEADLINE_EXCEEDED",
      taskId: "t1",
    });
  });

  it("treats a poll that times out well before the deadline as transient", async () => {
    const { fake, clock, client } = setupClient();
    fake.reply("hang", task("success"));
    expect((await client.waitForTask("tok", "t1", { requestTimeoutMs: 5 })).status).toBe("success");
    expect(clock.sleeps).toEqual([10_000]);
  });
});

describe("watchTask", () => {
  it("yields each status change once and ends at the terminal status", async () => {
    const { fake, client } = setupClient();
    fake.reply(
      task("waiting"),
      task("waiting"),
      task("in_progress"),
      task("in_progress"),
      task("success"),
    );
    expect(await collect(client.watchTask("tok", "t1"))).toEqual([
      "waiting",
      "in_progress",
      "success",
    ]);
  });

  it("never moves back to an earlier status", async () => {
    const { fake, client } = setupClient();
    fake.reply(task("in_progress"), task("waiting"), task("success"));
    expect(await collect(client.watchTask("tok", "t1"))).toEqual(["in_progress", "success"]);
  });

  it("reports an unknown status and keeps polling instead of crashing", async () => {
    const { fake, client } = setupClient();
    fake.reply(task("waiting"), task("paused"), task("success"));
    const unknown: string[] = [];
    const statuses = await collect(
      client.watchTask("tok", "t1", { onUnknownStatus: (status) => unknown.push(status) }),
    );
    expect(statuses).toEqual(["waiting", "success"]);
    expect(unknown).toEqual(["paused"]);
  });

  it("sends no more polls once the consumer stops", async () => {
    const { fake, client } = setupClient();
    fake.reply(task("waiting"));
    for await (const item of client.watchTask("tok", "t1")) {
      expect(item.status).toBe("waiting");
      break;
    }
    expect(fake.requests).toHaveLength(1);
  });

  it("yields the task with its full body", async () => {
    const { fake, client } = setupClient();
    fake.reply(task("success", { output: { file_url: "u" }, completed_at: 1_700_000_061_000 }));
    for await (const item of client.watchTask("tok", "t1")) {
      expect(item).toMatchObject({ output: { file_url: "u" }, completed_at: 1_700_000_061_000 });
    }
  });

  it("surfaces a non-transient error from the iterator", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(404, {}));
    const error = await rejectionOf(collect(client.watchTask("tok", "t1")));
    expect(isPlatformError(error, "PLATFORM_NOT_FOUND")).toBe(true);
  });
});
