import { expect } from "vitest";
import { freshIp, type TestInstance } from "./harness.ts";

/** What `POST /auth/device` answers (RFC 8628 §3.2). */
export interface DeviceCodes {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

const FORM = { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" };

/** `POST /auth/device`, as the command line sends it. */
export async function startDevice(t: TestInstance, userAgent = "overture-webhooks/test") {
  const response = await t.request("/auth/device", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": userAgent },
    body: "",
  });
  expect(response.status).toBe(200);
  return (await response.json()) as DeviceCodes;
}

/** `POST /auth/device/token`: the status and the JSON body. */
export async function pollDevice(t: TestInstance, deviceCode: string, ip = freshIp()) {
  const response = await t.request("/auth/device/token", {
    method: "POST",
    ip,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: deviceCode,
    }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** `POST /device` with a typed code: the response (303 to the platform when the code is known). */
export function enterCode(t: TestInstance, userCode: string, ip = freshIp()) {
  return t.request("/device", {
    method: "POST",
    ip,
    headers: FORM,
    body: new URLSearchParams({ user_code: userCode }).toString(),
  });
}

/** `POST /device/confirm` with the form's token and a decision. */
export function sendDecision(
  t: TestInstance,
  confirm: string,
  decision: "approve" | "deny",
  headers: Record<string, string> = {},
) {
  return t.request("/device/confirm", {
    method: "POST",
    headers: { ...FORM, ...headers },
    body: new URLSearchParams({ confirm, decision }).toString(),
  });
}

/**
 * What a person does in the browser up to the confirmation form: enters the code, signs in on
 * the platform (the emulator approves as `login`), and comes back to the callback. Returns the
 * confirmation form's one-time token.
 */
export async function signInForDevice(t: TestInstance, userCode: string, login?: string) {
  const ip = freshIp();
  const entered = await enterCode(t, userCode, ip);
  expect(entered.status).toBe(303);
  const back = await t.authorize(entered.headers.get("location") ?? "", login ? { login } : {});
  const page = await t.callback(back, { ip, headers: { Accept: "text/html" } });
  expect(page.status).toBe(200);
  const confirm = /name="confirm" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!confirm) throw new Error("no confirmation form after the platform's sign-in");
  return confirm;
}

/** The whole browser side: enter the code, sign in, and approve (or deny). */
export async function approveDevice(
  t: TestInstance,
  userCode: string,
  options: { login?: string; decision?: "approve" | "deny" } = {},
) {
  const confirm = await signInForDevice(t, userCode, options.login);
  const done = await sendDecision(t, confirm, options.decision ?? "approve");
  expect(done.status).toBe(200);
}
