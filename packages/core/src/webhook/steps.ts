import type { HmacSha256Hex, HmacSha256HexSync } from "./hmac.ts";

/** One HMAC a verification step needs: `[secret, signing text]`. */
export type HmacRequest = readonly [secret: string, text: string];

/**
 * A computation that needs HMACs, written once as a generator: it yields each {@link HmacRequest}
 * and is resumed with the lowercase hex. {@link runSync} and {@link runMaybeAsync} drive it, so
 * the synchronous and asynchronous verifiers share every step without duplicating one.
 */
export type HmacSteps<T> = Generator<HmacRequest, T, string>;

/**
 * Runs `steps` with a synchronous HMAC, without creating a promise.
 *
 * @throws TypeError when `hmac` answers with anything but a string (a promise, say).
 */
export function runSync<T>(steps: HmacSteps<T>, hmac: HmacSha256HexSync): T {
  let step = steps.next();
  while (step.done !== true) step = steps.next(syncMac(hmac(step.value[0], step.value[1])));
  return step.value;
}

/**
 * `mac` when it is a string; a TypeError otherwise (an asynchronous HMAC given where a
 * synchronous one is needed: TypeScript catches it, plain JavaScript may not).
 */
export function syncMac(mac: unknown): string {
  if (typeof mac === "string") return mac;
  throw new TypeError(
    "verifyWebhookSync needs an hmac that returns a string; use verifyWebhook for an asynchronous one",
  );
}

/**
 * Runs `steps` synchronously for as long as `hmac` answers with a string, and goes on
 * asynchronously from the first promise: a synchronous HMAC never pays for an `await`.
 */
export function runMaybeAsync<T>(steps: HmacSteps<T>, hmac: HmacSha256Hex): T | Promise<T> {
  let step = steps.next();
  while (step.done !== true) {
    const mac = hmac(step.value[0], step.value[1]);
    if (typeof mac !== "string") return finishAsync(steps, mac, hmac);
    step = steps.next(mac);
  }
  return step.value;
}

async function finishAsync<T>(
  steps: HmacSteps<T>,
  pending: Promise<string>,
  hmac: HmacSha256Hex,
): Promise<T> {
  let step = steps.next(await pending);
  while (step.done !== true) step = steps.next(await hmac(step.value[0], step.value[1]));
  return step.value;
}
