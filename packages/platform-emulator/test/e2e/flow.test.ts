import { verifyWebhook } from "@overture/core/webhook";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SEED } from "../../src/index.ts";
import { startPlatformEmulator, type RunningEmulator } from "../../src/server.ts";
import {
  rawQuery,
  referenceCanonicalQuery,
  referenceSignature,
} from "../helpers/reference-signer.ts";
import { startReceiver } from "../helpers/receiver.ts";

const CLIENT_ID = "overture-local";
const CLIENT_SECRET = "overture-local-secret-change-me";

describe("end to end over HTTP: sign-in → tokens → proxy token → task → signed callbacks → audio", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let emu: RunningEmulator;
  let redirectUri: string;

  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: 200, body: "ok" }));
    redirectUri = `${receiver.url}/oauth/callback`;
    const app = { ...DEFAULT_SEED.applications[0], redirect_uri: redirectUri };
    emu = await startPlatformEmulator({
      port: 0,
      clock: "manual",
      seed: { ...DEFAULT_SEED, applications: [app] },
      timing: { waitingMs: 2_000, runningMs: 8_000 },
    });
  });
  afterAll(async () => {
    await emu.close();
    await receiver.close();
  });

  it("runs the whole flow a backend would", async () => {
    // 1. Authorization page and approval (decision POST with the browser cookie).
    const authorize = new URL("/oauth/authorize", emu.url);
    Object.entries({
      response_type: "code",
      client_id: CLIENT_ID,
      redirect_uri: redirectUri,
      scope: "user_info api_key",
      state: "st-e2e",
    }).forEach(([k, v]) => {
      authorize.searchParams.set(k, v);
    });
    const page = await fetch(authorize, { redirect: "manual" });
    const html = await page.text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const cookie = /emu_browser=[^;]+/.exec(page.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const decision = await fetch(new URL("/oauth/authorize/decision", emu.url), {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie },
      body: new URLSearchParams({ request_id: requestId, decision: "approve" }),
    });
    const callback = new URL(decision.headers.get("location") ?? "");
    expect(callback.searchParams.get("state")).toBe("st-e2e");
    await fetch(callback); // the browser follows the redirect to the application
    expect(receiver.received[0]?.rawUrl).toMatch(/^\/oauth\/callback\?code=/);

    // 2. Code exchange with HTTP Basic client authentication.
    const tokenRes = await fetch(new URL("/api/open/oauth/token", emu.url), {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`,
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: callback.searchParams.get("code") ?? "",
        redirect_uri: redirectUri,
      }),
    });
    const tokens = (await tokenRes.json()) as { access_token: string };
    const open = (path: string) =>
      fetch(new URL(path, emu.url), {
        headers: { Authorization: `Bearer ${tokens.access_token}` },
      }).then((r) => r.json() as Promise<Record<string, unknown>>);

    // 3. User info, token list, proxy token.
    expect(await open("/api/open/v1/userinfo")).toMatchObject({ id: 1001, login: "demo" });
    const list = (await open("/api/open/v1/demo/tokens")) as unknown as { id: number }[];
    expect(list.map((t) => t.id)).toEqual([101, 102]);
    const detail = await open("/api/open/v1/demo/tokens/101");
    const proxy = String(detail.proxy_access_token);

    // 4. The user resets the account's webhook secret in the console.
    const secretRes = await fetch(
      new URL("/__emulator/accounts/demo/webhook-secret/reset", emu.url),
      { method: "POST" },
    );
    const { secret } = (await secretRes.json()) as { secret: string };

    // 5. Submit with X-WebHook, authorized by the proxy token.
    const form = new FormData();
    form.append("prompt", "e2e ambient");
    form.append("duration", "3");
    const hook = `${receiver.url}/webhooks/platform?k=task-key&b=2&a=1`;
    const submitted = await fetch(new URL("/v1/async/music/generations", emu.apiUrl), {
      method: "POST",
      headers: { Authorization: `Bearer ${proxy}`, "X-WebHook": hook },
      body: form,
    });
    const { task_id, urls } = (await submitted.json()) as {
      task_id: string;
      urls: { get: string };
    };

    // 6. Drive the clock: waiting → in_progress → success, each with a signed callback.
    await emu.control.clock.advance(10_000);
    const callbacks = receiver.received.filter((r) => r.rawUrl.startsWith("/webhooks/platform"));
    expect(callbacks.map((r) => (JSON.parse(r.body) as { status: string }).status)).toEqual([
      "waiting",
      "in_progress",
      "success",
    ]);
    for (const r of callbacks) {
      expect(r.rawUrl).toBe("/webhooks/platform?k=task-key&b=2&a=1");
      const ts = String(r.headers["x-sign-timestamp"]);
      const canonical = referenceCanonicalQuery(rawQuery(hook));
      expect(canonical).toBe("a=1&b=2&k=task-key");
      expect(r.headers["x-signature"]).toBe(referenceSignature(secret, ts, canonical, r.body));
      const verified = await verifyWebhook({
        body: r.body,
        url: hook,
        headers: { "X-Sign-Timestamp": ts, "X-Signature": String(r.headers["x-signature"]) },
        secrets: secret,
        now: () => emu.control.clock.now(),
      });
      expect(verified.ok).toBe(true);
    }

    // 7. Poll (urls.get) and download the audio.
    const task = (await fetch(urls.get, { headers: { Authorization: `Bearer ${proxy}` } }).then(
      (r) => r.json(),
    )) as { status: string; output: { file_url: string } };
    expect(task.status).toBe("success");
    expect(JSON.parse(callbacks[2]?.body ?? "{}")).toMatchObject({
      task_id,
      output: { file_url: task.output.file_url },
    });
    const audio = new Uint8Array(await (await fetch(task.output.file_url)).arrayBuffer());
    expect(String.fromCharCode(...audio.subarray(0, 4))).toBe("RIFF");
    expect(String.fromCharCode(...audio.subarray(8, 12))).toBe("WAVE");
    expect(audio.length).toBe(44 + 3 * 22_050 * 2);
  });
});
