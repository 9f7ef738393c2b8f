import { createServer, connect, type Server, type Socket } from "node:net";

/**
 * A TCP proxy the test controls, put between a backend and its Postgres so a test can make "the
 * database" vanish without touching the machine's shared cluster (other suites use it at the same
 * time). `refuse()` cuts every open connection and stops listening, so new connections get
 * ECONNREFUSED exactly as with a stopped server; `restore()` listens again on the same port.
 */
export interface TcpProxy {
  readonly port: number;
  /** `url` (a postgres:// URL) pointed at the proxy instead of the real server. */
  through(url: string): string;
  /** Open client connections right now. */
  readonly connections: number;
  /** Connections accepted since the start (reconnects show up here). */
  readonly accepted: number;
  /** Cuts every open connection (RST both ways); keeps accepting new ones. */
  cut(): void;
  /** Cuts every connection and stops listening: the database is "down". */
  refuse(): Promise<void>;
  /** Listens again on the same port: the database is "up". */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let accepted = 0;

  const onConnection = (client: Socket) => {
    accepted += 1;
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : port);
      });
    });
  const port = await listen(0);
  let listening = true;

  const cut = () => {
    for (const [client, upstream] of pairs) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    pairs.clear();
  };
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!listening) {
        resolve();
        return;
      }
      listening = false;
      server.close(() => {
        resolve();
      });
    });

  return {
    port,
    through(url) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    get connections() {
      return pairs.size;
    },
    get accepted() {
      return accepted;
    },
    cut,
    async refuse() {
      const closed = stopListening();
      cut();
      await closed;
    },
    async restore() {
      if (listening) return;
      server = createServer(onConnection);
      await listen(port);
      listening = true;
    },
    async close() {
      const closed = stopListening();
      cut();
      await closed;
    },
  };
}
