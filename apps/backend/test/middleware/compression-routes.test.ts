import { brotliDecompressSync } from "node:zlib";
import { signWebhook } from "@overture/core/webhook";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Task } from "../../src/schemas/task.ts";
import { archiverOf, finishedTask } from "../support/archive.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { createTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const ACCEPT = { "Accept-Encoding": "br, gzip" };

/**
 * SECURITY S27 on the real routes: what the extension and the share page read is compressed;
 * audio, Range answers, the live event stream and the webhook intake never are. The database
 * does not matter here: PGlite only.
 */
describe("compression on the backend's own routes", () => {
  let t: TestBackend;
  let user: TaskUser & { secret?: string };
  let task: Task;
  let sharePath: string;
  beforeAll(async () => {
    t = await startTestBackend({ driver: "pglite", emulator: { maxAudioSeconds: 5 } });
    user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, 100);
    task = await finishedTask(t, user.session);
    expect(await archiverOf(t).runOnce()).toBe(1);
    const share = await t.request(`/api/tasks/${task.id}/shares`, {
      method: "POST",
      session: user.session,
    });
    sharePath = new URL(((await share.json()) as { url: string }).url).pathname;
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}, session = true) =>
    t.request(path, {
      ...(session ? { session: user.session } : {}),
      headers: { ...ACCEPT, ...headers },
    });

  it("compresses the task list and the share page, saying Vary: Accept-Encoding (the valid case)", async () => {
    for (const [path, session] of [
      ["/api/tasks", true],
      [sharePath, false],
    ] as const) {
      const response = await get(path, {}, session);
      expect(response.headers.get("content-encoding"), path).toBe("br");
      expect(response.headers.get("vary"), path).toContain("Accept-Encoding");
      expect(
        brotliDecompressSync(Buffer.from(await response.arrayBuffer())).length,
      ).toBeGreaterThan(1_024);
    }
  });

  it("never compresses audio: the session route, a media link and a shared track", async () => {
    const link = await t.request(`/api/tasks/${task.id}/media-link?format=mp3`, {
      method: "POST",
      session: user.session,
    });
    const media = new URL(((await link.json()) as { url: string }).url).pathname;
    for (const [path, session] of [
      [`/api/tasks/${task.id}/audio`, true],
      [`/api/tasks/${task.id}/audio?format=mp3`, true],
      [media, false],
      [`${sharePath}/audio`, false],
    ] as const) {
      const response = await get(path, {}, session);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-encoding"), path).toBeNull();
      const bytes = (await response.arrayBuffer()).byteLength;
      expect(String(bytes), path).toBe(response.headers.get("content-length"));
      expect(bytes).toBeGreaterThan(1_024);
    }
  });

  it("never compresses a Range answer", async () => {
    const response = await get(`/api/tasks/${task.id}/audio`, { Range: "bytes=0-4095" });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect((await response.arrayBuffer()).byteLength).toBe(4_096);
  });

  it("never compresses the live event stream", async () => {
    const controller = new AbortController();
    const response = await t.request("/api/events", {
      session: user.session,
      headers: ACCEPT,
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("content-encoding")).toBeNull();
    controller.abort();
    await response.body?.cancel().catch(() => undefined);
  });

  it("never compresses the webhook intake, nor says it might (no Vary: Accept-Encoding)", async () => {
    const running = await createTask(t, user.session);
    const url = t.emu.control.getTask(running.platform_task_id ?? "")?.webhook_url ?? "";
    const body = JSON.stringify({
      event_id: "evt_compression",
      task_id: running.platform_task_id,
      status: "in_progress",
      output: {},
      usage_info: {},
    });
    const signed = await signWebhook({
      secret: user.secret ?? "",
      url,
      body,
      now: () => t.clock.now(),
    });
    const response = await t.app.request(url, {
      method: "POST",
      body,
      headers: { ...signed, ...ACCEPT, "Content-Type": "application/json" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary") ?? "").not.toContain("Accept-Encoding");
  });
});
