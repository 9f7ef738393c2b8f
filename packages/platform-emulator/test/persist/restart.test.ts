import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createPlatformEmulator, seedFor, type PlatformEmulatorOptions } from "../../src/index.ts";
import { startPlatformEmulator } from "../../src/server.ts";
import { bearer, json, manualEmulator } from "../helpers/emulator.ts";
import { refreshRequest, signIn } from "../helpers/oauth.ts";
import {
  rawQuery,
  referenceCanonicalQuery,
  referenceSignature,
} from "../helpers/reference-signer.ts";
import { startReceiver, type Reply } from "../helpers/receiver.ts";
import { getTask, submitId } from "../helpers/tasks.ts";
import { SECRET } from "../helpers/webhooks.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "emu-state-"));
  dirs.push(dir);
  return dir;
}

const realFetch: typeof fetch = (input, init) => fetch(input, init);
const at = (emu: ReturnType<typeof manualEmulator>, path: string, token: string) =>
  emu.app.request(path, { headers: bearer(token) });

describe("a restart from the same dataDir loses nothing (issue 11 item 10)", () => {
  it("tokens, a proxy token, a task cut mid-run, its file and pending webhook retries all carry on", async () => {
    let refusing = true;
    const receiver = await startReceiver(() => ({ status: refusing ? 503 : 200 }));
    const dir = dataDir();
    const options: PlatformEmulatorOptions = { dataDir: dir, fetch: realFetch };
    try {
      const before = manualEmulator(options);
      before.control.setWebhookSecret("demo", SECRET);
      const tokens = await signIn(before);
      const detail = await json<{ proxy_access_token: string }>(
        await at(before, "/api/open/v1/demo/tokens/101", tokens.access_token),
      );
      const proxy = detail.proxy_access_token;
      const id = await submitId(before, undefined, {
        token: proxy,
        webhook: `${receiver.url}/hook?k=1`,
      });
      await before.control.clock.advance(1_000);
      expect((await getTask(before, id, proxy)).status).toBe("in_progress");
      const stoppedAt = before.control.clock.now();
      const pending = before.control.listDeliveries().map((d) => [d.id, d.eventId, d.state]);
      expect(pending.map(([, , state]) => state)).toEqual(["retry_scheduled", "retry_scheduled"]);
      before.control.close();

      refusing = false;
      const after = manualEmulator(options);
      expect(after.control.clock.now()).toBe(stoppedAt);
      expect((await at(after, "/api/open/v1/userinfo", tokens.access_token)).status).toBe(200);
      expect((await refreshRequest(after, tokens.refresh_token)).status).toBe(200);
      expect((await getTask(after, id, proxy)).status).toBe("in_progress");

      await after.control.clock.advance(4_000);
      const done = await getTask(after, id, proxy);
      expect(done).toMatchObject({ status: "success", completed_at: stoppedAt - 1_000 + 5_000 });
      const file = new URL((done.output as { file_url: string }).file_url);
      const wav = await after.app.request(file.pathname);
      expect(wav.status).toBe(200);
      expect((await wav.arrayBuffer()).byteLength).toBe(44 + 8 * 22_050 * 2);

      await after.control.clock.advance(120_000);
      const deliveries = after.control.listDeliveries();
      expect(deliveries.map((d) => d.state)).toEqual(["succeeded", "succeeded", "succeeded"]);
      expect(deliveries.slice(0, 2).map((d) => [d.id, d.eventId])).toEqual(
        pending.map(([dId, eventId]) => [dId, eventId]),
      );
      for (const got of receiver.received) {
        const ts = String(got.headers["x-sign-timestamp"]);
        const canonical = referenceCanonicalQuery(rawQuery(got.rawUrl));
        expect(got.headers["x-signature"]).toBe(
          referenceSignature(SECRET, ts, canonical, got.body),
        );
      }
      after.control.close();
    } finally {
      await receiver.close();
    }
  });

  it("a result link issued before a restart works after it, until its stored expiry", async () => {
    const dir = dataDir();
    const before = manualEmulator({ dataDir: dir });
    const id = await submitId(before);
    await before.control.clock.advance(5_000);
    const link = (await getTask(before, id)).output as { file_url: string };
    before.control.close();
    const after = manualEmulator({ dataDir: dir });
    const path = new URL(link.file_url).pathname;
    expect((await after.app.request(path)).status).toBe(200);
    await after.control.clock.advance(24 * 3_600_000);
    expect((await after.app.request(path)).status).toBe(410);
  });

  it("a restart on another address keeps old result links and proxy tokens working there", async () => {
    const dir = dataDir();
    const before = manualEmulator({ dataDir: dir, baseUrl: "http://127.0.0.1:4101" });
    const tokens = await signIn(before);
    const { proxy_access_token: proxy } = await json<{ proxy_access_token: string }>(
      await at(before, "/api/open/v1/demo/tokens/101", tokens.access_token),
    );
    const id = await submitId(before, undefined, { token: proxy });
    await before.control.clock.advance(5_000);
    expect((await getTask(before, id, proxy)).status).toBe("success");
    before.control.close();

    const after = manualEmulator({ dataDir: dir, baseUrl: "http://127.0.0.1:4202" });
    const done = await getTask(after, id, proxy);
    const link = new URL((done.output as { file_url: string }).file_url);
    expect(link.origin).toBe("http://127.0.0.1:4202");
    expect((await after.app.request(link.pathname + link.search)).status).toBe(200);
    after.control.close();
  });

  it("a delivery in flight when the emulator stops is logged as interrupted and retried after the restart", async () => {
    let reached: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    let hang = true;
    const receiver = await startReceiver((): Reply => {
      reached();
      return hang ? "hang" : { status: 200 };
    });
    const dir = dataDir();
    try {
      const before = manualEmulator({ dataDir: dir, fetch: realFetch });
      before.control.setWebhookSecret("demo", SECRET);
      await submitId(before, undefined, { webhook: `${receiver.url}/hook` });
      await arrived;
      expect(before.control.listDeliveries()[0]?.state).toBe("in_flight");
      before.control.close();

      hang = false;
      const after = manualEmulator({ dataDir: dir, fetch: realFetch });
      const [record] = after.control.listDeliveries();
      expect(record).toMatchObject({ state: "retry_scheduled", retriesUsed: 1 });
      expect(record?.attempts[0]?.error).toMatch(/interrupted/);
      await after.control.clock.advance(200);
      expect(after.control.listDeliveries()[0]?.state).toBe("succeeded");
      after.control.close();
    } finally {
      await receiver.close();
    }
  });

  it("a seed changed between runs wins where it changed; runtime changes stay elsewhere", () => {
    const dir = dataDir();
    const first = manualEmulator({ dataDir: dir });
    const secret = first.control.resetWebhookSecret("demo");
    first.control.setQuota("ada", 5);
    first.control.close();

    const moved = seedFor({ backendUrl: "http://127.0.0.1:9999" });
    const second = manualEmulator({ dataDir: dir, seed: moved });
    const state = second.control.snapshot();
    expect(state.applications[0]?.redirect_uri).toBe("http://127.0.0.1:9999/oauth/callback");
    expect(state.accounts.find((a) => a.namespace === "demo")?.webhook_secret).toBe(secret);
    expect(state.accounts.find((a) => a.namespace === "ada")?.quota).toBe(5);
    second.control.close();

    const third = manualEmulator({
      dataDir: dir,
      seed: { ...moved, webhookSecrets: { demo: "x" } },
    });
    const demo = third.control.snapshot().accounts.find((a) => a.namespace === "demo");
    expect(demo?.webhook_secret).toBe("x");
    third.control.close();
  });

  it("reset() is saved too: after a restart the state is the seed's", async () => {
    const dir = dataDir();
    const first = manualEmulator({ dataDir: dir });
    await submitId(first);
    first.control.reset();
    first.control.close();
    const second = manualEmulator({ dataDir: dir });
    expect(second.control.listTasks()).toEqual([]);
    second.control.close();
  });

  it("writes atomically (no temporary file left behind), readable by its owner only", async () => {
    const dir = dataDir();
    const emu = manualEmulator({ dataDir: dir });
    await submitId(emu);
    emu.control.flush();
    expect(readdirSync(dir)).toEqual(["platform-emulator-state.json"]);
    expect(statSync(join(dir, "platform-emulator-state.json")).mode & 0o777).toBe(0o600);
    emu.control.close();
  });

  it("stateFile names the file itself", () => {
    const file = join(dataDir(), "nested", "emu.json");
    const emu = createPlatformEmulator({ clock: "manual", stateFile: file });
    emu.control.close();
    expect(statSync(file).isFile()).toBe(true);
  });

  it.each([
    ["not valid JSON", "{ not json", /platform-emulator-state\.json is not valid JSON/],
    ["of another version", JSON.stringify({ version: 99 }), /version 99/],
  ])("refuses to start from a state file %s, naming the file", (_, content, error) => {
    const dir = dataDir();
    writeFileSync(join(dir, "platform-emulator-state.json"), content);
    expect(() => manualEmulator({ dataDir: dir })).toThrow(error);
  });

  it("startPlatformEmulator's close() saves: the next start has the same tasks", async () => {
    const dir = dataDir();
    const first = await startPlatformEmulator({ port: 0, clock: "manual", dataDir: dir });
    const id = await submitId(first.emulator);
    await first.close();
    const second = await startPlatformEmulator({ port: 0, clock: "manual", dataDir: dir });
    try {
      expect(second.control.getTask(id)?.status).toBe("waiting");
    } finally {
      await second.close();
    }
  });
});
