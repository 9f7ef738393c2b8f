import { serve } from "@hono/node-server";
import {
  createPlatformEmulator,
  DEFAULT_SEED,
  seedFor,
  type PlatformEmulator,
  type PlatformEmulatorOptions,
} from "@overture/platform-emulator";

/** The seed's application: its client id and secret go into the backend's environment. */
export const [BENCH_APP] = DEFAULT_SEED.applications;

type Answer = Response | Promise<Response>;

export interface ServedEmulator {
  emu: PlatformEmulator;
  /** Stops the emulator's timers and deliveries, then its server. */
  close(): Promise<void>;
}

/**
 * The platform emulator on its own loopback port, as the backend under test reaches it: the
 * seed's application calls back to `backendUrl`, and the `demo` account signs its webhooks with
 * `secret`. `handle` sees each request first (what a suite counts or times) and hands it on with
 * `pass`; the emulator runs in the benchmark's process, so whatever it computes is the
 * benchmark's CPU, not the backend's.
 */
export function serveEmulator(setup: {
  port: number;
  backendUrl: string;
  secret: string;
  /** Tasks each account may run at once. */
  quotas: Record<string, number>;
  options: Omit<PlatformEmulatorOptions, "baseUrl" | "seed">;
  handle?: (request: Request, pass: (request: Request) => Answer) => Answer;
}): ServedEmulator {
  const emu = createPlatformEmulator({
    ...setup.options,
    baseUrl: `http://127.0.0.1:${setup.port}`,
    seed: seedFor({
      backendUrl: setup.backendUrl,
      seed: { ...DEFAULT_SEED, webhookSecrets: { demo: setup.secret }, quotas: setup.quotas },
    }),
  });
  const pass = (request: Request) => emu.app.fetch(request);
  const server = serve({
    hostname: "127.0.0.1",
    port: setup.port,
    fetch: (request: Request) => (setup.handle ? setup.handle(request, pass) : pass(request)),
  });
  return {
    emu,
    close: () =>
      new Promise<void>((resolve) => {
        emu.control.close();
        server.close(() => {
          resolve();
        });
      }),
  };
}
