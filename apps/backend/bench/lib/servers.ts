import { DIST_INDEX, freePort, spawnNode, spawnSource, waitReady, type Child } from "./procs.ts";
import { ENCRYPTION_KEY } from "./plan.ts";
import { sleep } from "./stats.ts";

/**
 * The processes under test: the built backend (`node dist/index.js`, exactly what `pnpm start`
 * runs) and the references, plain node ES modules given as source text so that no loader
 * (tsx) stands between them and the comparison.
 */
export interface Server {
  child: Child;
  port: number;
  url: string;
  /** Spawn → first 200 from the readiness path, ms. */
  readyMs: number;
}

export type DatabaseTarget = { url: string } | { dir: string };

export const CHROME_REDIRECT = "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/";

export async function startBackend(
  database: DatabaseTarget,
  env: Record<string, string | undefined> = {},
  nodeArgs: string[] = [],
  fixedPort?: number,
  distIndex = DIST_INDEX,
): Promise<Server> {
  const port = fixedPort ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawnNode([...nodeArgs, distIndex], {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: url,
    PLATFORM_BASE_URL: "http://127.0.0.1:9",
    PLATFORM_CLIENT_ID: "overture-bench",
    PLATFORM_CLIENT_SECRET: "overture-bench-secret",
    TOKEN_ENCRYPTION_KEYS: ENCRYPTION_KEY,
    EXTENSION_REDIRECT_URLS: CHROME_REDIRECT,
    EXTENSION_ORIGINS: "chrome-extension://kagljjjecjnbgppkpgkmojciehbjidja",
    LOG_LEVEL: "warn",
    ...("url" in database ? { DATABASE_URL: database.url } : { PGLITE_DATA_DIR: database.dir }),
    ...env,
  });
  const readyMs = await waitReady(port, child, started);
  return { child, port, url, readyMs };
}

/** Reference (a): a bare Hono handler on @hono/node-server, reading the body and answering 200. */
const BARE_HONO = `
import { serve } from "@hono/node-server";
import { Hono } from "hono";
const app = new Hono();
app.post("/webhooks/platform", async (c) => {
  await c.req.text();
  return c.json({ status: "accepted" }, 200);
});
app.get("/readyz", (c) => c.json({ status: "ready" }, 200));
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT) });
`;

/** Reference of live streams: node:http holding SSE responses in a Set, a shared heartbeat. */
const BARE_SSE = `
import { createServer } from "node:http";
const streams = new Set();
const server = createServer((req, res) => {
  if (req.url === "/readyz") { res.end("ok"); return; }
  res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform" });
  res.write("retry: 3000\\n\\nid: 0\\nevent: ready\\ndata: {\\"last_event_id\\":\\"0\\"}\\n\\n");
  streams.add(res);
  req.on("close", () => streams.delete(res));
});
setInterval(() => { for (const res of streams) res.write(": ping\\n\\n"); }, 15000).unref();
server.listen(Number(process.env.PORT), "127.0.0.1");
`;

export async function startReference(kind: "hono" | "sse"): Promise<Server> {
  const port = await freePort();
  const started = performance.now();
  const child = spawnSource(kind === "hono" ? BARE_HONO : BARE_SSE, { PORT: String(port) });
  const readyMs = await waitReady(port, child, started);
  return { child, port, url: `http://127.0.0.1:${port}`, readyMs };
}

/**
 * A bare PGlite process (the footprint reference): opens `DIR` with `OPTS` (JSON), runs one
 * query, prints "ready" and idles until stopped.
 */
const BARE_PGLITE = `
import { PGlite } from "@electric-sql/pglite";
const db = new PGlite(process.env.DIR, JSON.parse(process.env.OPTS));
await db.waitReady;
await db.query("select 1");
console.log("ready");
process.on("SIGTERM", () => db.close().then(() => process.exit(0)));
setInterval(() => {}, 1 << 30);
`;

/** Past this a bare PGlite process counts as hung (seen once: asleep before loading its wasm). */
const BARE_PGLITE_TIMEOUT_MS = 90_000;

export async function startBarePglite(
  dir: string,
  options: Record<string, unknown>,
  attempts = 2,
): Promise<{ child: Child; readyMs: number }> {
  const started = performance.now();
  const child = spawnSource(BARE_PGLITE, { DIR: dir, OPTS: JSON.stringify(options) });
  for (;;) {
    if (child.output().includes("ready")) return { child, readyMs: performance.now() - started };
    const exited = await Promise.race([child.exited.then(() => true), sleep(5).then(() => false)]);
    if (exited) throw new Error(`bare PGlite exited:\n${child.output()}`);
    if (performance.now() - started > BARE_PGLITE_TIMEOUT_MS) {
      await child.stop(0);
      if (attempts <= 1)
        throw new Error(`bare PGlite not ready within ${BARE_PGLITE_TIMEOUT_MS} ms`);
      console.warn(`[bench] bare PGlite hung for ${BARE_PGLITE_TIMEOUT_MS} ms; starting it again`);
      return startBarePglite(dir, options, attempts - 1);
    }
  }
}
