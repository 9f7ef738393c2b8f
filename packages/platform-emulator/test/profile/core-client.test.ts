/**
 * Core's typed client (`@overture/core/client`) against the emulator in both response profiles
 * (issue 11 item 6): what a backend does with it, end to end, must work whether the platform
 * answers in the readable shapes or as the live platform does. Core cannot depend on the emulator
 * (the emulator depends on core), so this suite lives here. The client's clock is the emulator's
 * and its sleep advances it, so polling runs without waiting.
 */

import { createPlatformClient, type PlatformClient } from "@overture/core/client";
import { isPlatformError, QUOTA_EXHAUSTED } from "@overture/core/errors";
import { taskErrorMessage, taskResultUrl } from "@overture/core/schemas";
import { describe, expect, it } from "vitest";
import type { PlatformEmulator, PlatformEmulatorOptions, ProfileName } from "../../src/index.ts";
import { CLIENT, manualEmulator } from "../helpers/emulator.ts";
import { authorizationCode } from "../helpers/oauth.ts";

const BASE_URL = "http://127.0.0.1:4010";

const TASK_ID: Record<ProfileName, RegExp> = {
  readable: /^task_[A-Za-z0-9_-]+$/,
  live: /^[A-Z0-9]{32}$/,
};
/** Which output field carries the link of two consecutive successes. */
const LINK_FIELDS: Record<ProfileName, string[]> = {
  readable: ["file_url", "file_url"],
  live: ["file_url", "url"],
};
/** Whether `output.error` of two consecutive failures is an object or a string. */
const FAILURE_SHAPES: Record<ProfileName, string[]> = {
  readable: ["object", "object"],
  live: ["object", "string"],
};

interface Setup {
  emu: PlatformEmulator;
  client: PlatformClient;
  /** demo's paid token's short-lived proxy token, obtained through the OAuth grant. */
  proxyToken: string;
}

/** Signs in as demo with core's client and fetches a proxy token, as the backend does. */
async function signedIn(profile: ProfileName, options: PlatformEmulatorOptions = {}) {
  const emu = manualEmulator({ profile, maxAudioSeconds: 1, ...options });
  const client = createPlatformClient({
    baseUrl: BASE_URL,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    fetch: (input, init) => Promise.resolve(emu.app.request(new Request(input, init))),
    now: () => emu.control.clock.now(),
    sleep: (ms) => emu.control.clock.advance(ms),
    random: () => 0.5,
  });
  const code = await authorizationCode(emu);
  const tokens = await client.exchangeCode({ code, redirectUri: CLIENT.redirectUri });
  const refreshed = await client.refreshGrant({ refreshToken: tokens.refresh_token ?? "" });
  expect(refreshed.access_token).not.toBe(tokens.access_token);
  const user = await client.getUserInfo(refreshed.access_token);
  expect(user).toMatchObject({ id: 1001, login: "demo" });
  const listed = await client.listAccessTokens(refreshed.access_token, "demo");
  const paid = listed.find((token) => token.usage_scenario === "paid");
  if (!paid) throw new Error("demo has no paid token");
  const detail = await client.getAccessTokenDetail(refreshed.access_token, "demo", paid.id);
  emu.control.setQuota("demo", 10);
  return { emu, client, proxyToken: detail.proxy_access_token } satisfies Setup;
}

const submit = (s: Setup) =>
  s.client.submitMusicTask(s.proxyToken, { prompt: "lofi piano", duration: 30 });

describe.each<ProfileName>(["readable", "live"])("core's client, %s profile", (profile) => {
  it("signs in, submits and polls two tasks to success, reading each result link", async () => {
    const s = await signedIn(profile);
    const submitted = [await submit(s), await submit(s)];
    for (const answer of submitted) expect(answer.task_id).toMatch(TASK_ID[profile]);
    const fields: string[] = [];
    for (const { task_id } of submitted) {
      const task = await s.client.waitForTask(s.proxyToken, task_id, { timeoutMs: 600_000 });
      expect(task.status).toBe("success");
      // Timestamps in ms, whichever the profile.
      expect(Number(task.completed_at)).toBeGreaterThan(Number(task.started_at));
      expect(String(task.completed_at)).toMatch(/^\d{13}$/);
      const link = taskResultUrl(task);
      if (!link) throw new Error(`no result link in ${JSON.stringify(task.output)}`);
      fields.push(task.output?.file_url === link ? "file_url" : "url");
      const audio = await s.emu.app.request(link);
      expect(audio.status).toBe(200);
      const bytes = new Uint8Array(await audio.arrayBuffer());
      expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("RIFF");
    }
    expect(fields).toEqual(LINK_FIELDS[profile]);
  });

  it("reads the failure text of two failed tasks, in each error shape", async () => {
    const s = await signedIn(profile, { timing: { failureRate: 1 } });
    const shapes: string[] = [];
    for (const { task_id } of [await submit(s), await submit(s)]) {
      const task = await s.client.waitForTask(s.proxyToken, task_id, { timeoutMs: 600_000 });
      expect(task.status).toBe("failure");
      shapes.push(typeof task.output?.error);
      expect(taskErrorMessage(task)).toEqual(expect.stringMatching(/\S/));
      expect(taskResultUrl(task)).toBeUndefined();
    }
    expect(shapes).toEqual(FAILURE_SHAPES[profile]);
  });

  it("reports a submit over the quota as QUOTA_EXHAUSTED, and the quota endpoint agrees", async () => {
    const s = await signedIn(profile);
    s.emu.control.setQuota("demo", 1);
    await submit(s);
    expect(await s.client.getAvailableQuota(s.proxyToken)).toMatchObject({ available: 0 });
    const refused = await submit(s).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isPlatformError(refused, QUOTA_EXHAUSTED)).toBe(true);
    expect(isPlatformError(refused) && refused.status).toBe(429);
  });

  it("cancels a waiting task", async () => {
    const s = await signedIn(profile);
    const { task_id } = await submit(s);
    await s.client.cancelTask(s.proxyToken, task_id);
    expect((await s.client.getTask(s.proxyToken, task_id)).status).toBe("cancelled");
  });
});
