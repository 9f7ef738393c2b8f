/**
 * `@overture/platform-emulator/server`: the emulator on real sockets (Node only, through
 * `@hono/node-server`), for tests of other programs and for the `overture-platform-emulator`
 * command. In-process tests need only the main entry point.
 *
 * @packageDocumentation
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { Hono } from "hono";
import { createPlatformEmulator, type PlatformEmulator } from "./emulator.ts";
import type { PlatformEmulatorOptions } from "./options.ts";

/**
 * What {@link startPlatformEmulator} takes: every option of the in-process emulator, plus where
 * to listen. `baseUrl` and `apiUrl` default to the address it listens on; set them only when a
 * proxy puts it at another public address.
 *
 * @example
 * ```ts
 * const options: StartOptions = { port: 4010, profile: "live", dataDir: ".emulator" };
 * const emu = await startPlatformEmulator(options);
 * ```
 */
export interface StartOptions extends Omit<PlatformEmulatorOptions, "baseUrl" | "apiUrl"> {
  /** Default 127.0.0.1: the control plane has no authentication. */
  host?: string;
  /** Port of `{base_url}` (and `{api_url}` unless `apiPort`); 0 picks a free one. Default 0. */
  port?: number;
  /** Serve `{api_url}` routes on their own port (0 = free one). Default: share `port`. */
  apiPort?: number;
  /** Public URLs when behind a proxy; default http://host:port. */
  baseUrl?: string;
  /** Public `{api_url}` when behind a proxy; default: `baseUrl`, or http://host:apiPort. */
  apiUrl?: string;
}

/**
 * A started emulator: its URLs (give them to the client under test), the in-process emulator
 * and its control handle, and `close()`. Always close it, or the sockets keep the process alive.
 *
 * @example
 * ```ts
 * const emu: RunningEmulator = await startPlatformEmulator({ port: 0 });
 * try {
 *   await fetch(`${emu.apiUrl}/v1/tasks/available-quota`, { headers: { Authorization: "Bearer emu-demo-studio-paid-0001" } });
 * } finally {
 *   await emu.close();
 * }
 * ```
 */
export interface RunningEmulator {
  /** `{base_url}` */
  url: string;
  /** `{api_url}` */
  apiUrl: string;
  /** The in-process emulator behind the sockets (its apps and resolved options). */
  emulator: PlatformEmulator;
  /** The same as `emulator.control`. */
  control: PlatformEmulator["control"];
  /** Saves the state (with `dataDir`), stops timers and deliveries, and closes the sockets. */
  close(): Promise<void>;
}

/**
 * Starts the emulator on 127.0.0.1 for tests of other packages and for the CLI.
 *
 * @example
 * ```ts
 * import { startPlatformEmulator } from "@overture/platform-emulator/server";
 * const emu = await startPlatformEmulator({ port: 0 });
 * // ... point the client at emu.url
 * await emu.close();
 * ```
 */
export async function startPlatformEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  const holder: { emulator?: PlatformEmulator } = {};
  const late = (pick: (e: PlatformEmulator) => Hono) => (request: Request) =>
    holder.emulator
      ? pick(holder.emulator).fetch(request)
      : new Response("starting", { status: 503 });
  const split = options.apiPort !== undefined;
  const base = await listen(
    late((e) => (split ? e.baseApp : e.app)),
    host,
    options.port ?? 0,
  );
  const api = split
    ? await listen(
        late((e) => e.apiApp),
        host,
        options.apiPort ?? 0,
      )
    : base;
  const url = options.baseUrl ?? origin(host, base.port);
  const apiUrl = options.apiUrl ?? (split ? origin(host, api.port) : url);
  const running = createPlatformEmulator({ ...options, baseUrl: url, apiUrl });
  holder.emulator = running;
  return {
    url,
    apiUrl,
    emulator: running,
    control: running.control,
    async close() {
      running.control.close();
      await Promise.all([base.close(), split ? api.close() : undefined]);
    },
  };
}

async function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  hostname: string,
  port: number,
) {
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch, hostname, port }, () => {
      resolve(s);
    });
    s.once("error", reject);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function origin(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
