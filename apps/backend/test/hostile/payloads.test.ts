import { signWebhook } from "@overture/core/webhook";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_BODY_LIMIT_BYTES } from "../../src/middleware/body-limit.ts";
import { MAX_JSON_DEPTH } from "../../src/lib/storable.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";
import { createTask, getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

/**
 * Signed deliveries whose content is hostile to the code or the database behind the signature
 * check: huge, deeply nested, or holding text Postgres cannot store. They come from the platform
 * (only it can sign), so they are stored and applied, never a 5xx that the platform would retry
 * until it gives up. Plus the size limit of the JSON API.
 */
describeEachDriver("hostile payloads", (driver) => {
  let t: TestBackend;
  let user: TaskUser & { secret?: string };
  // A polled record the "platform" answers instead of the real one (set per test).
  let pollAnswer: Record<string, unknown> | undefined;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      rewritePlatformResponse: async (path, response) => {
        if (!pollAnswer || !path.startsWith("/api/v1/task/")) return response;
        const real = (await response.json()) as Record<string, unknown>;
        return Response.json({ ...real, ...pollAnswer });
      },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, 100);
  });
  afterAll(() => t.close());

  let counter = 0;
  async function deliver(event: Record<string, unknown>, raw?: (platformId: string) => string) {
    const task = await createTask(t, user.session);
    const url = t.emu.control.getTask(task.platform_task_id ?? "")?.webhook_url ?? "";
    counter += 1;
    const body =
      raw?.(task.platform_task_id ?? "") ??
      JSON.stringify({
        event_id: `evt_payload_${counter}`,
        task_id: task.platform_task_id,
        status: "success",
        usage_info: {},
        ...event,
      });
    const send = async () =>
      t.app.request(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          ...(await signWebhook({
            secret: user.secret ?? "",
            url,
            body,
            now: () => t.clock.now(),
          })),
        },
        body,
      });
    return { task, response: await send(), send, body };
  }

  it("stores a signed event whose output fills the body limit, and shows it on the task", async () => {
    const room = t.config.webhook.maxBodyBytes - 200;
    const output = { file_url: "http://127.0.0.1:4010/files/big.wav", notes: "n".repeat(room) };
    const { task, response } = await deliver({ output });
    expect(response.status).toBe(200);
    const after = await getTask(t, user.session, task.id);
    expect(after.status).toBe("success");
    expect(after.output).toEqual(output);
  });

  it("applies a signed event nested 50,000 levels deep, keeping a note instead of its output", async () => {
    const depth = 50_000;
    const { task, response } = await deliver(
      {},
      (platformId) =>
        `{"event_id":"evt_deep","task_id":"${platformId}","status":"success","usage_info":{},` +
        `"output":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}`,
    );
    expect(response.status).toBe(200);
    const after = await getTask(t, user.session, task.id);
    expect(after.status).toBe("success");
    expect(JSON.stringify(after.output)).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it("stores text the database cannot hold (NUL, unpaired surrogates) with U+FFFD instead of failing every retry", async () => {
    const { task, response } = await deliver({
      output: {
        file_url: "http://127.0.0.1:4010/files/a\u0000b.wav",
        title: "x\ud800y",
        "k\u0000": 1,
      },
      status: "success",
    });
    expect(response.status).toBe(200);
    const after = await getTask(t, user.session, task.id);
    expect(after.status).toBe("success");
    expect(after.output).toEqual({
      file_url: "http://127.0.0.1:4010/files/a\ufffdb.wav",
      title: "x\ufffdy",
      "k\ufffd": 1,
    });
  });

  it("keys an event_id too long for an index by its hash, and still recognises its re-delivery", async () => {
    const eventId = `evt_${"L".repeat(5_000)}`;
    const { response, send } = await deliver({ event_id: eventId, status: "in_progress" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "accepted" });
    const again = await send();
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ status: "duplicate" });
    const rows = await selectRows<{ event_id: string }>(
      t.database.db,
      sql`select event_id from webhook_events where event_id like 'sha256:%'`,
    );
    expect(rows).toHaveLength(1);
  });

  it("finishes a task whose polled record holds unstorable text, instead of failing every poll", async () => {
    const ada = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    const task = await createTask(t, ada.session);
    pollAnswer = {
      output: { file_url: "http://127.0.0.1:4010/files/\u0000.wav", extra: "\udc00" },
    };
    try {
      for (
        let i = 0;
        i < 12 && (await getTask(t, ada.session, task.id)).status !== "success";
        i += 1
      ) {
        await t.emu.control.clock.advance(10_000);
        await t.backend.deps.services.reconciler.runOnce();
      }
    } finally {
      pollAnswer = undefined;
    }
    const after = await getTask(t, ada.session, task.id);
    expect(after.status).toBe("success");
    expect(after.file_url).toBe("http://127.0.0.1:4010/files/\ufffd.wav");
  });

  it.each(["/auth/token", "/api/tasks"])(
    "answers 413 to a body over %s's limit before reading it, signed in or not",
    async (path) => {
      const response = await t.request(path, {
        method: "POST",
        ...(path === "/api/tasks" ? { session: user.session } : {}),
        body: JSON.stringify({ code: "x".repeat(API_BODY_LIMIT_BYTES), prompt: "x" }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({
        error: "payload_too_large",
        message: expect.stringContaining(String(API_BODY_LIMIT_BYTES)) as unknown,
      });
    },
  );
});
