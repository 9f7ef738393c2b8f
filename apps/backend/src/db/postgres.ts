import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import {
  migrationsFolder,
  TEXT_TYPE_IDS,
  type NotificationHandler,
  type PostgresDatabase,
} from "./client.ts";
import * as schema from "./schema/index.ts";
import type { Statement } from "./script.ts";

// Session-level advisory lock key shared by every instance that migrates this database.
const MIGRATION_LOCK_KEY = 7_324_001;

type BuiltinType = (typeof pg.types.builtins)[keyof typeof pg.types.builtins];
const TEXT_TYPES = new Set<number>(TEXT_TYPE_IDS);
const DRIVER_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: BuiltinType) => {
    if (TEXT_TYPES.has(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid) as (value: string) => unknown;
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** node-postgres: a pool for queries and one dedicated connection for LISTEN. */
export function openPostgres(url: string): PostgresDatabase {
  const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000 });
  // Statements a script session prepared, per connection: they live as long as it does.
  const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();
  // A client losing its connection (database restart, network cut) must not crash the process.
  // Idle: the pool reports it here. Checked out: node-postgres fails the query (the caller sees
  // it) and also emits "error" on the client, which the pool does not listen to then — an
  // unhandled "error" event would end the process. The pool drops such a client on release.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
  });
  const db = drizzle(pool, { schema, casing: "snake_case" });
  const listeners = new Map<string, Set<NotificationHandler>>();
  let listenClient: ListenClient | undefined;

  return {
    driver: "pg",
    db: db,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client
          .query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY])
          .catch(() => undefined);
        client.release();
      }
    },
    async ping() {
      await pool.query("select 1");
    },
    async query<Row>({ name, text, params }: Statement) {
      // A named query: node-postgres parses it once per connection, then binds and executes.
      const result = await pool.query({ name, text, values: [...params], types: DRIVER_TYPES });
      return result.rows as Row[];
    },
    async scriptSession() {
      const client = await pool.connect();
      let prepared = preparedOn.get(client);
      if (!prepared) preparedOn.set(client, (prepared = new Set()));
      return {
        prepared,
        async run(text) {
          const result = (await client.query({ text, types: DRIVER_TYPES })) as unknown as
            pg.QueryResult | pg.QueryResult[];
          return (Array.isArray(result) ? result : [result]).map(
            (r) => r.rows as Record<string, unknown>[],
          );
        },
        release(broken) {
          client.release(broken === true);
        },
      };
    },
    async listen(channel, handler) {
      listenClient ??= new ListenClient(url, listeners);
      return listenClient.add(channel, handler);
    },
    async close() {
      await listenClient?.close();
      await pool.end();
    },
  };
}

/**
 * One dedicated connection for LISTEN (a pooled one would be handed to other queries). It
 * reconnects with back-off after the database goes away and re-subscribes every channel.
 */
class ListenClient {
  private client: pg.Client | undefined;
  private closed = false;
  private connecting: Promise<void> | undefined;
  private retryMs = 250;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly listeners: Map<string, Set<NotificationHandler>>,
  ) {}

  async add(channel: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    let handlers = this.listeners.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.listeners.set(channel, handlers);
      await this.ensureConnected();
      await this.client?.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    handlers.add(handler);
    return async () => {
      handlers.delete(handler);
      if (handlers.size === 0) {
        this.listeners.delete(channel);
        await this.client?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    await this.client?.end().catch(() => undefined);
  }

  private ensureConnected(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (message) => {
      for (const handler of this.listeners.get(message.channel) ?? [])
        handler(message.payload ?? "");
    });
    const lost = () => {
      if (this.client === client) this.scheduleReconnect();
    };
    client.on("error", lost);
    client.on("end", lost);
    await client.connect();
    for (const channel of this.listeners.keys()) {
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    this.client = client;
    this.retryMs = 250;
  }

  private scheduleReconnect(): void {
    this.client = undefined;
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.ensureConnected().catch(() => {
        this.retryMs = Math.min(this.retryMs * 2, 5_000);
        this.scheduleReconnect();
      });
    }, this.retryMs);
    this.reconnectTimer.unref();
  }
}
