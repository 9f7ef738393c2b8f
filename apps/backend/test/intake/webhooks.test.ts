import { signWebhook } from "@overture/core/webhook";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASK_EVENTS_CHANNEL } from "../../src/db/channels.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { waitFor } from "../support/live.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";
import { createTask, getTask, storeSecret } from "../support/tasks.ts";
import { setUpTaskUser, type TaskUser } from "../support/tasks.ts";

interface Rejection {
  reason: string;
  message: string;
  diagnoses: { code: string }[] | null;
  http_status: number;
  task_id: string | null;
  namespace: string | null;
}

const GRACE_SECONDS = 60;

describeEachDriver("webhook intake", (driver) => {
  let t: TestBackend;
  let user: TaskUser & { secret?: string };
  let secret: string;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      config: { WEBHOOK_SECRET_GRACE_SECONDS: String(GRACE_SECONDS) },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
    secret = user.secret ?? "";
    t.emu.control.setQuota(user.namespace, 1_000);
  });
  afterAll(() => t.close());

  let counter = 0;
  /** A fresh waiting task with its callback URL (as the emulator received it) and platform id. */
  async function newTask() {
    const task = await createTask(t, user.session);
    const view = t.emu.control.getTask(task.platform_task_id ?? "");
    if (!view?.webhook_url) throw new Error("the emulator got no callback URL");
    return { id: task.id, platformId: task.platform_task_id ?? "", url: view.webhook_url };
  }

  function event(platformId: string, status: string, extra: Record<string, unknown> = {}) {
    counter += 1;
    return JSON.stringify({
      event_id: `evt_test_${counter}`,
      task_id: platformId,
      status,
      output: {},
      usage_info: {},
      ...extra,
    });
  }

  async function deliver(
    url: string,
    body: string,
    options: {
      secret?: string;
      timestamp?: number;
      headers?: Record<string, string>;
      /** The instance to deliver to (default: the first). */
      to?: Pick<TestBackend, "app">;
    } = {},
  ) {
    const signature = await signWebhook({
      secret: options.secret ?? secret,
      url,
      body,
      ...(options.timestamp ? { timestamp: options.timestamp } : { now: () => t.clock.now() }),
    });
    return (options.to ?? t).app.request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...signature, ...options.headers },
      body,
    });
  }

  const countRows = async (query: ReturnType<typeof sql>) =>
    (await selectRows<{ n: number }>(t.database.db, query))[0]?.n ?? -1;
  const taskEventCount = (taskId: string) =>
    countRows(sql`select count(*)::int as n from task_events where task_id = ${taskId}`);
  const storedEvents = (eventId: string) =>
    countRows(sql`select count(*)::int as n from webhook_events where event_id = ${eventId}`);

  async function latestRejection(): Promise<Rejection | undefined> {
    await t.backend.deps.services.webhookIntake.flushRejections();
    const response = await t.request("/api/webhook-rejections?limit=1", { session: user.session });
    const body = (await response.json()) as { rejections: Rejection[] };
    return body.rejections[0];
  }

  describe("accepted deliveries", () => {
    it(
      driver === "pg"
        ? "announces the committed task event to other instances (NOTIFY after commit)"
        : "sends no NOTIFY on PGlite, where this process is the only client",
      async () => {
        const notified: number[] = [];
        const unlisten = await t.database.listen(TASK_EVENTS_CHANNEL, (payload) =>
          notified.push(Number(payload)),
        );
        try {
          const task = await newTask();
          expect((await deliver(task.url, event(task.platformId, "in_progress"))).status).toBe(200);
          const lastId = await countRows(sql`select max(id)::int as n from task_events`);
          // The announcer sends in the turn after the commit's: far within this wait.
          await waitFor("the NOTIFY", () => notified.some((id) => id >= lastId), 500).catch(
            () => undefined,
          );
          expect(notified.some((id) => id >= lastId)).toBe(driver === "pg");
        } finally {
          await unlisten();
        }
      },
    );

    it("applies a signed event and answers a re-delivery of it 2xx without changing anything", async () => {
      const task = await newTask();
      const body = event(task.platformId, "in_progress");
      const first = await deliver(task.url, body);
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ status: "accepted" });
      const applied = await getTask(t, user.session, task.id);
      expect(applied.status).toBe("in_progress");
      const events = await taskEventCount(task.id);

      const again = await deliver(task.url, body);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ status: "duplicate" });
      expect(await getTask(t, user.session, task.id)).toEqual(applied);
      expect(await taskEventCount(task.id)).toBe(events);
    });

    it("keeps success when an in_progress event arrives after it", async () => {
      const task = await newTask();
      const output = { file_url: "http://127.0.0.1:4010/files/late.wav" };
      expect((await deliver(task.url, event(task.platformId, "success", { output }))).status).toBe(
        200,
      );
      expect((await deliver(task.url, event(task.platformId, "in_progress"))).status).toBe(200);
      const after = await getTask(t, user.session, task.id);
      expect(after).toMatchObject({ status: "success", output, file_url: output.file_url });
    });

    it("records an unknown status on the event and the task without applying it, and answers 2xx", async () => {
      const task = await newTask();
      const body = event(task.platformId, "paused");
      const response = await deliver(task.url, body);
      expect(response.status).toBe(200);
      expect(await getTask(t, user.session, task.id)).toMatchObject({
        status: "waiting",
        unknown_status: "paused",
      });
      const eventId = (JSON.parse(body) as { event_id: string }).event_id;
      const [stored] = await selectRows<{ status: string }>(
        t.database.db,
        sql`select status from webhook_events where event_id = ${eventId}`,
      );
      expect(stored?.status).toBe("paused");
    });

    it("stores an event delivered 20 times at once exactly once", async () => {
      const task = await newTask();
      const body = event(task.platformId, "in_progress");
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => deliver(task.url, body)),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      const outcomes = await Promise.all(
        responses.map(async (r) => ((await r.json()) as { status: string }).status),
      );
      expect(outcomes.filter((o) => o === "accepted")).toHaveLength(1);
      expect(await storedEvents((JSON.parse(body) as { event_id: string }).event_id)).toBe(1);
    });

    it("commits 100 concurrent distinct events, several per transaction", async () => {
      const tasks = await Promise.all(Array.from({ length: 4 }, () => newTask()));
      const before = await t.backend.deps.metrics.webhookBatchSize.get();
      const sum = (m: typeof before, name: string) =>
        m.values.find((v) => v.metricName === name)?.value ?? 0;
      const bodies = Array.from({ length: 100 }, (_, i) => {
        const task = tasks[i % tasks.length] ?? tasks[0];
        if (!task) throw new Error("no task");
        return { task, body: event(task.platformId, i < 50 ? "in_progress" : "success") };
      });
      const responses = await Promise.all(bodies.map(({ task, body }) => deliver(task.url, body)));
      expect(responses.every((r) => r.status === 200)).toBe(true);
      const ids = bodies.map(({ body }) => (JSON.parse(body) as { event_id: string }).event_id);
      expect(
        await countRows(
          sql`select count(*)::int as n from webhook_events where event_id in ${ids}`,
        ),
      ).toBe(100);
      const after = await t.backend.deps.metrics.webhookBatchSize.get();
      const batches =
        sum(after, "overture_webhook_commit_batch_size_count") -
        sum(before, "overture_webhook_commit_batch_size_count");
      const events =
        sum(after, "overture_webhook_commit_batch_size_sum") -
        sum(before, "overture_webhook_commit_batch_size_sum");
      // The emulator's own deliveries may share the window; ours are 100 of them.
      expect(events).toBeGreaterThanOrEqual(100);
      expect(batches).toBeLessThan(events);
    });
  });

  describe("refused deliveries", () => {
    it("refuses a bad signature with 401, records why and for which task and account, and stores nothing", async () => {
      const task = await newTask();
      const body = event(task.platformId, "in_progress");
      const response = await deliver(task.url, body, { secret: "whsec_not-the-right-one" });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: "webhook_signature_mismatch" });
      expect(await storedEvents((JSON.parse(body) as { event_id: string }).event_id)).toBe(0);
      expect((await getTask(t, user.session, task.id)).status).toBe("waiting");
      expect(await latestRejection()).toMatchObject({
        reason: "WEBHOOK_SIGNATURE_MISMATCH",
        http_status: 401,
        task_id: task.id,
        namespace: user.namespace,
      });
    });

    it("refuses a timestamp older than the tolerance", async () => {
      const task = await newTask();
      const stale = t.clock.now() - t.config.webhook.toleranceMs - 1_000;
      const response = await deliver(task.url, event(task.platformId, "in_progress"), {
        timestamp: stale,
      });
      expect(response.status).toBe(401);
      expect(await latestRejection()).toMatchObject({ reason: "WEBHOOK_TIMESTAMP_OUT_OF_RANGE" });
    });

    it("refuses a delivery without signature headers", async () => {
      const task = await newTask();
      const response = await t.app.request(task.url, {
        method: "POST",
        body: event(task.platformId, "in_progress"),
      });
      expect(response.status).toBe(401);
      expect(await latestRejection()).toMatchObject({ reason: "WEBHOOK_MISSING_HEADER" });
    });

    it("answers 404 for an unknown key and records nothing", async () => {
      const before = await latestRejection();
      const url =
        "http://backend.test/webhooks/platform?k=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
      const response = await deliver(url, event("task_nope", "success"));
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: "unknown_task" });
      expect(await latestRejection()).toEqual(before);
    });

    it("answers 413 when Content-Length exceeds the limit", async () => {
      const task = await newTask();
      const body = event(task.platformId, "in_progress", {
        padding: "x".repeat(t.config.webhook.maxBodyBytes),
      });
      const response = await deliver(task.url, body);
      expect(response.status).toBe(413);
    });

    it("answers 413 when a body without Content-Length grows past the limit", async () => {
      const task = await newTask();
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > t.config.webhook.maxBodyBytes) controller.close();
          else controller.enqueue(chunk);
          sent += chunk.byteLength;
        },
      });
      const response = await t.app.request(task.url, {
        method: "POST",
        body,
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(413);
    });

    it("answers 400 malformed_body for invalid JSON with a valid signature, and records it", async () => {
      const task = await newTask();
      const response = await deliver(task.url, "{not json");
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "malformed_body" });
      expect(await latestRejection()).toMatchObject({ reason: "malformed_body", http_status: 400 });
    });

    it("answers 400 task_mismatch when the event names another task", async () => {
      const task = await newTask();
      const response = await deliver(task.url, event("task_somebody_else", "success"));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "task_mismatch" });
      expect((await getTask(t, user.session, task.id)).status).toBe("waiting");
    });
  });

  describe("rejection log", () => {
    it("lists the owner's rejections newest first in pages, and nobody else's", async () => {
      await t.backend.deps.services.webhookIntake.flushRejections();
      const page = async (query: string, session = user.session) =>
        (await (await t.request(`/api/webhook-rejections?${query}`, { session })).json()) as {
          rejections: (Rejection & { id: number })[];
          next_cursor: string | null;
        };
      const first = await page("limit=2");
      expect(first.rejections).toHaveLength(2);
      const [a, b] = first.rejections;
      expect((a?.id ?? 0) > (b?.id ?? 0)).toBe(true);
      const second = await page(`limit=2&cursor=${first.next_cursor ?? ""}`);
      expect((second.rejections[0]?.id ?? Infinity) < (b?.id ?? 0)).toBe(true);
      const other = await t.signIn({ login: "ada" });
      expect((await page("limit=10", other.sessionToken)).rejections).toEqual([]);
    });
  });

  describe("secret rotation", () => {
    it("accepts the previous secret during its grace period, and afterwards refuses it saying an outdated secret matches", async () => {
      const task = await newTask();
      const old = secret;
      secret = t.emu.control.resetWebhookSecret(user.namespace);
      await storeSecret(t, user.session, user.namespace, secret);

      expect(
        (await deliver(task.url, event(task.platformId, "in_progress"), { secret: old })).status,
      ).toBe(200);
      expect((await deliver(task.url, event(task.platformId, "in_progress"))).status).toBe(200);

      await t.emu.control.clock.advance(GRACE_SECONDS * 1000 + 1_000);
      const late = await deliver(task.url, event(task.platformId, "success"), { secret: old });
      expect(late.status).toBe(401);
      expect(await latestRejection()).toMatchObject({
        reason: "WEBHOOK_SIGNATURE_MISMATCH",
        diagnoses: [expect.objectContaining({ code: "FORMER_SECRET_MATCHES" })],
      });
    });

    it("makes another instance forget a cached secret as soon as the owner clears it", async () => {
      const other = await t.openSecondInstance();
      const task = await newTask();
      // A signed body that is not JSON: 400 while the secret verifies, 401 once it is gone, and
      // either way nothing is stored, so the probe can repeat.
      const probe = async () => (await deliver(task.url, "not json", { to: other })).status;
      expect(await probe()).toBe(400); // the other instance now has the secret cached

      const cleared = await t.request(`/api/namespaces/${user.namespace}/webhook-secret`, {
        method: "DELETE",
        session: user.session,
      });
      expect(cleared.status).toBe(204);
      try {
        // The clock does not move, so the cache never ages out: only the notification can do it.
        let status = await probe();
        for (let i = 0; i < 100 && status === 400; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          status = await probe();
        }
        expect(status).toBe(401);
      } finally {
        await storeSecret(t, user.session, user.namespace, secret);
      }
    });

    it("refuses deliveries at once after the owner clears the secret, though it was cached", async () => {
      const task = await newTask();
      expect((await deliver(task.url, event(task.platformId, "in_progress"))).status).toBe(200);

      const cleared = await t.request(`/api/namespaces/${user.namespace}/webhook-secret`, {
        method: "DELETE",
        session: user.session,
      });
      expect(cleared.status).toBe(204);
      try {
        const after = await deliver(task.url, event(task.platformId, "success"));
        expect(after.status).toBe(401);
        expect(await latestRejection()).toMatchObject({ reason: "no_secret" });
        expect((await getTask(t, user.session, task.id)).status).toBe("in_progress");
      } finally {
        await storeSecret(t, user.session, user.namespace, secret);
      }
    });
  });
});
