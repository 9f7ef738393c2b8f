import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { Hono } from "hono";
import { createPlatformEmulator, type PlatformEmulator } from "./emulator.ts";
import type { PlatformEmulatorOptions } from "./options.ts";

export interface StartOptions extends Omit<PlatformEmulatorOptions, "baseUrl" | "apiUrl"> {
  /** Default 127.0.0.1: the control plane has no authentication. */
  host?: string;
  /** Port of `{base_url}` (and `{api_url}` unless `apiPort`); 0 picks a free one. Default 0. */
  port?: number;
  /** Serve `{api_url}` routes on their own port (0 = free one). Default: share `port`. */
  apiPort?: number;
  /** Public URLs when behind a proxy; default http://host:port. */
  baseUrl?: string;
  apiUrl?: string;
}

export interface RunningEmulator {
  /** `{base_url}` */
  url: string;
  /** `{api_url}` */
  apiUrl: string;
  emulator: PlatformEmulator;
  control: PlatformEmulator["control"];
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
