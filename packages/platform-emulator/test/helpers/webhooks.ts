import type { PlatformEmulator, PlatformEmulatorOptions } from "../../src/index.ts";
import { captureFetch, type CapturedDelivery } from "./capture.ts";
import { manualEmulator } from "./emulator.ts";
import { submitId } from "./tasks.ts";

export const SECRET = "whsec_test";

/** A manual-clock emulator whose deliveries go to an in-memory capture, with demo's secret set. */
export function webhookEmulator(
  options: PlatformEmulatorOptions = {},
  statuses: number[] = [],
): { emu: PlatformEmulator; deliveries: CapturedDelivery[] } {
  const capture = captureFetch(statuses);
  const emu = manualEmulator({ fetch: capture.fetch, ...options });
  emu.control.setWebhookSecret("demo", SECRET);
  return { emu, deliveries: capture.deliveries };
}

/** Submits with `X-WebHook: url` and returns the first (waiting) delivery once settled. */
export async function firstDelivery(
  url: string,
  options: PlatformEmulatorOptions = {},
): Promise<CapturedDelivery> {
  const { emu, deliveries } = webhookEmulator(options);
  await submitId(emu, undefined, { webhook: url });
  await emu.control.settle();
  const first = deliveries[0];
  if (!first) throw new Error("no delivery");
  return first;
}
