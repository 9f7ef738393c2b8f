import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHROME_EXTENSION_ID } from "@overture/extension/identity";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "@overture/backend/server";
import { signIn } from "@overture/backend/testing";
import { type MainJobEnv, parseMainJobEnv } from "../src/env.ts";
import { type LocalStack, startLocalStack } from "../src/stack.ts";

const REDIRECT = `https://${CHROME_EXTENSION_ID}.chromiumapp.org/`;
// Tasks that take a few seconds, so a restart can fall in the middle of one.
const TIMING = { timing: { waitingMs: 1_000, runningMs: 4_000, failureRate: 0 } };

async function waitFor<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface TaskJson {
  id: string;
  status: string;
  file_url: string | null;
  archive: { status: string; audio_url: string | null } | null;
}

/** The main job as its user meets it: any ports, and a restart that loses nothing. */
// Each start opens embedded Postgres (a fresh one costs a few seconds on two cores).
describe("the main job", { timeout: 120_000 }, () => {
  const stacks: LocalStack[] = [];
  const folders: string[] = [];
  afterEach(async () => {
    for (const stack of stacks.splice(0)) await stack.close();
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  function settings(backendPort: number, emulatorPort: number, dataDir?: string): MainJobEnv {
    const folder = dataDir ?? mkdtempSync(join(tmpdir(), "overture-main-job-"));
    if (!dataDir) folders.push(folder);
    return { backendPort, emulatorPort, dataDir: folder, logLevel: "silent" };
  }

  async function start(options: MainJobEnv): Promise<LocalStack> {
    const stack = await startLocalStack(options, {}, TIMING);
    stacks.push(stack);
    return stack;
  }

  const api =
    (stack: LocalStack, session: string) =>
    (path: string, init: RequestInit = {}) =>
      fetch(`${stack.backendUrl}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${session}`, "Content-Type": "application/json" },
      });

  it("signs in on ports other than the defaults, chosen by the system", async () => {
    const stack = await start(settings(0, 0));
    expect(stack.backendUrl).not.toMatch(/:8787$/);
    expect(stack.platformUrl).not.toMatch(/:4010$/);
    const session = await signIn(stack.backendUrl, REDIRECT);
    const me = await api(stack, session)("/api/me");
    expect(me.status).toBe(200);
  });

  it("runs the emulator in the live profile with EMULATOR_PROFILE=live: results as large as real ones", async () => {
    const folder = mkdtempSync(join(tmpdir(), "overture-main-job-"));
    folders.push(folder);
    const env = { PORT: "0", EMULATOR_PORT: "0", OVERTURE_DATA_DIR: folder };
    expect(parseMainJobEnv(env).emulatorProfile).toBe("readable");
    const options = parseMainJobEnv({ ...env, EMULATOR_PROFILE: "live", LOG_LEVEL: "silent" });
    const stack = await start(options);
    const session = await signIn(stack.backendUrl, REDIRECT);
    const call = api(stack, session);
    const selection = { namespace: "demo", token_id: 101 };
    await call("/api/selection", { method: "PUT", body: JSON.stringify(selection) });
    const created = (await (
      await call("/api/tasks", {
        method: "POST",
        body: JSON.stringify({ prompt: "live", duration: 30 }),
      })
    ).json()) as TaskJson;
    const done = await waitFor("the task to succeed", async () => {
      const task = (await (await call(`/api/tasks/${created.id}`)).json()) as TaskJson;
      return task.status === "success" ? task : undefined;
    });
    // The WAV header: 48 kHz stereo, as upstream ACE-Step writes (the readable profile: 22.05 kHz mono).
    const head = Buffer.from(await (await fetch(done.file_url ?? "")).arrayBuffer());
    expect({ channels: head.readUInt16LE(22), rate: head.readUInt32LE(24) }).toEqual({
      channels: 2,
      rate: 48_000,
    });
    expect(() => parseMainJobEnv({ ...env, EMULATOR_PROFILE: "fast" })).toThrow(/EMULATOR_PROFILE/);
  });

  it("keeps everyone signed in across a restart, and finishes a task the restart cut", async () => {
    const options = settings(await freePort(), await freePort());
    let stack = await start(options);
    const session = await signIn(stack.backendUrl, REDIRECT);
    const call = () => api(stack, session);
    expect(
      (
        await call()("/api/selection", {
          method: "PUT",
          body: JSON.stringify({ namespace: "demo", token_id: 101 }),
        })
      ).status,
    ).toBe(200);
    const created = (await (
      await call()("/api/tasks", {
        method: "POST",
        body: JSON.stringify({ prompt: "restart me", duration: 30 }),
      })
    ).json()) as TaskJson;
    expect(["waiting", "submitting", "queued"]).toContain(created.status);

    await stack.close();
    stacks.splice(stacks.indexOf(stack), 1);
    stack = await start(options);

    const me = await call()("/api/me");
    expect(me.status).toBe(200);
    expect(((await me.json()) as { grant: { status: string } }).grant.status).toBe("active");
    const done = await waitFor("the task to finish after the restart", async () => {
      const task = (await (await call()(`/api/tasks/${created.id}`)).json()) as TaskJson;
      return ["success", "failure", "cancelled", "unknown"].includes(task.status)
        ? task
        : undefined;
    });
    expect(done.status).toBe("success");
    const audio = await fetch(done.file_url ?? "");
    expect(audio.status).toBe(200);
    await audio.arrayBuffer();

    // Archived as files in the data folder, not as rows of the single-connection database.
    const archived = await waitFor("the result to be archived", async () => {
      const task = (await (await call()(`/api/tasks/${created.id}`)).json()) as TaskJson;
      return task.archive?.status === "archived" ? task : undefined;
    });
    const files = readdirSync(join(options.dataDir, "archive")).filter(
      (name) => !name.startsWith("."),
    );
    expect(files.length).toBeGreaterThan(0);
    const stored = await call()(new URL(archived.archive?.audio_url ?? "").pathname);
    expect(stored.status).toBe(200);
    expect((await stored.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});
