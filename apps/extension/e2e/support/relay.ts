// A TCP relay in front of the backend, so that stopping it looks to the browser like the end of
// a backend process: every connection is cut at once and new ones are refused. Closing the
// backend's HTTP server in-process leaves the browser's pooled keep-alive connections served by
// the stopped instance, which a real restart never does.
import { type Server, type Socket, connect, createServer } from "node:net";

export interface Relay {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Bytes the backend sent to the browser since the relay was created (the benchmarks read it). */
  bytesToBrowser(): number;
}

/** Relays 127.0.0.1:`port` to 127.0.0.1:`target`. */
export function tcpRelay(port: number, target: number): Relay {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let toBrowser = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  return {
    start: () =>
      new Promise<void>((resolve, reject) => {
        const listening = createServer((client) => {
          const upstream = connect(target, "127.0.0.1");
          track(client);
          track(upstream);
          client.on("close", () => upstream.destroy());
          upstream.on("close", () => client.destroy());
          upstream.on("data", (chunk: Buffer) => (toBrowser += chunk.length));
          client.pipe(upstream).pipe(client);
        });
        listening.once("error", reject);
        listening.listen(port, "127.0.0.1", () => {
          server = listening;
          resolve();
        });
      }),
    bytesToBrowser: () => toBrowser,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        const closing = server;
        server = null;
        if (closing)
          closing.close(() => {
            resolve();
          });
        else resolve();
      }),
  };
}
