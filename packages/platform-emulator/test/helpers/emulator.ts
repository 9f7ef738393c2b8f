import { createPlatformEmulator, type PlatformEmulator } from "../../src/index.ts";
import type { PlatformEmulatorOptions } from "../../src/options.ts";

export const CLIENT = {
  id: "overture-local",
  secret: "overture-local-secret-change-me",
  redirectUri: "http://127.0.0.1:8787/oauth/callback",
};
export const DEMO_TOKEN = "emu-demo-studio-paid-0001";
export const LAB_TOKEN = "emu-lab-shared-paid-0003";

/** An emulator on a manual clock with the default seed and a fixed lifecycle (1 s + 4 s). */
export function manualEmulator(options: PlatformEmulatorOptions = {}): PlatformEmulator {
  return createPlatformEmulator({
    clock: "manual",
    ...options,
    timing: { waitingMs: 1_000, runningMs: 4_000, failureRate: 0, ...options.timing },
  });
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
