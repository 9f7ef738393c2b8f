import { spawnSource, freePort, waitReady } from "./procs.ts";
import { secretOf } from "./plan.ts";
import type { Server } from "./servers.ts";
import { sleep } from "./stats.ts";

/**
 * References (c) and (c+) of webhook intake: the handler anyone would write first, on the same
 * server stack as the backend (Hono on @hono/node-server, plain node). It reads the raw body,
 * finds the task by its key (a map loaded at start, as the intake's cache would hold it), checks
 * the HMAC with node:crypto, and commits one transaction per event on a pool of 16: insert the
 * event ON CONFLICT DO NOTHING, update the task; (c+) also inserts the task event. No merge, no
 * ordering lock, no NOTIFY: the durable work only.
 */
const NAIVE = `
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import pg from "pg";
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 16 });
pool.on("error", () => undefined);
const withTaskEvent = process.env.TASK_EVENT === "1";
const secrets = JSON.parse(process.env.SECRETS);
const targets = new Map();
const { rows } = await pool.query(
  "select id, user_id, webhook_key_hash from tasks where webhook_key_hash is not null");
for (const r of rows) targets.set(r.webhook_key_hash, { id: r.id, userId: Number(r.user_id) });
const app = new Hono();
app.post("/webhooks/platform", async (c) => {
  const body = Buffer.from(await c.req.arrayBuffer());
  const key = c.req.query("k") ?? "";
  const target = targets.get(createHash("sha256").update(key).digest("hex"));
  if (!target) return c.json({ error: "unknown_task" }, 404);
  const timestamp = c.req.header("x-sign-timestamp") ?? "";
  const signature = Buffer.from(c.req.header("x-signature") ?? "", "hex");
  const mac = createHmac("sha256", secrets[target.userId])
    .update(timestamp + "\\nk=" + key + "\\n").update(body).digest();
  if (signature.length !== mac.length || !timingSafeEqual(signature, mac))
    return c.json({ error: "signature" }, 401);
  const event = JSON.parse(body.toString("utf8"));
  const client = await pool.connect();
  let inserted = 0;
  try {
    await client.query("begin");
    const result = await client.query(
      "insert into webhook_events (event_id, task_id, status, signed_at) values ($1, $2, $3, $4) on conflict (event_id) do nothing",
      [event.event_id, target.id, event.status, Number(timestamp)]);
    inserted = result.rowCount ?? 0;
    if (inserted === 1) {
      await client.query(
        "update tasks set status = $2, platform_task_id = $3, output = $4, usage_info = $5, updated_at = now(), last_event_at = now() where id = $1",
        [target.id, event.status, event.task_id, JSON.stringify(event.output ?? null), JSON.stringify(event.usage_info ?? null)]);
      if (withTaskEvent)
        await client.query(
          "insert into task_events (user_id, task_id, status, source, payload) values ($1, $2, $3, 'webhook', $4)",
          [target.userId, target.id, event.status, JSON.stringify({ id: target.id, status: event.status, output: event.output ?? null, usage_info: event.usage_info ?? null })]);
    }
    await client.query("commit");
  } catch {
    await client.query("rollback").catch(() => undefined);
    client.release(true);
    return c.json({ error: "unavailable" }, 503);
  }
  client.release();
  return c.json({ status: inserted === 1 ? "accepted" : "duplicate" }, 200);
});
app.get("/readyz", (c) => c.json({ status: "ready" }, 200));
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT) });
`;

/** Starts (c) or (c+) on a Postgres database and lets it go idle before the measured load. */
export async function startNaive(
  databaseUrl: string,
  users: number,
  withTaskEvent: boolean,
): Promise<Server> {
  const port = await freePort();
  const started = performance.now();
  const secrets = Object.fromEntries(
    Array.from({ length: users }, (_, i) => [i + 1, secretOf(i + 1)]),
  );
  const child = spawnSource(NAIVE, {
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    TASK_EVENT: withTaskEvent ? "1" : "0",
    SECRETS: JSON.stringify(secrets),
  });
  const readyMs = await waitReady(port, child, started);
  await sleep(IDLE_BEFORE_LOAD_MS);
  return { child, port, url: `http://127.0.0.1:${port}`, readyMs };
}

/** Every server is left this long after it answers /readyz: start-up work (JIT, wasm) settles. */
export const IDLE_BEFORE_LOAD_MS = 1_000;
