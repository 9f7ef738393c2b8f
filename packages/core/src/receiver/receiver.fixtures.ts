// Test-only: a delivery signed as the platform signs it, for the receiver's tests.
import { signWebhook } from "../webhook/index.ts";

export const SECRET = "receiver-fixture-secret";
export const NOW = 1_767_225_600_000;
export const URL_CALLED = "https://receiver.example/webhooks/platform?k=abc";
export const LINK = "https://files.example/t1.wav";

/** The parts of a delivery of `event` signed with `secret` a second before `NOW`. */
export async function signedDelivery(event: object | string, secret = SECRET) {
  const body = new TextEncoder().encode(typeof event === "string" ? event : JSON.stringify(event));
  const headers = await signWebhook({ secret, url: URL_CALLED, body, timestamp: NOW - 1000 });
  return { body, url: URL_CALLED, headers };
}

/** The same delivery as a Fetch request. */
export async function signedRequest(event: object | string, secret = SECRET): Promise<Request> {
  const { body, headers } = await signedDelivery(event, secret);
  return new Request(URL_CALLED, { method: "POST", headers, body });
}
