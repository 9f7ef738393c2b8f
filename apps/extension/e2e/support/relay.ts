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
  /** Of those, the bodies of audio answers (`Content-Type: audio/*`, by their Content-Length). */
  audioBytesToBrowser(): number;
}

// A response head in what the backend sends (HTTP/1.1; heads are written in one piece).
const HEAD = /HTTP\/1\.1 \d{3}[^\r\n]*\r\n((?:[^\r\n]+\r\n)*)\r\n/g;

/** Audio body bytes announced by the response heads in `chunk`. */
function audioBytesIn(chunk: Buffer): number {
  let bytes = 0;
  for (const [, headers = ""] of chunk.toString("latin1").matchAll(HEAD)) {
    if (!/^content-type:\s*audio\//im.test(headers)) continue;
    bytes += Number(/^content-length:\s*(\d+)/im.exec(headers)?.[1] ?? 0);
  }
  return bytes;
}

/** Relays 127.0.0.1:`port` to 127.0.0.1:`target`. */
export function tcpRelay(port: number, target: number): Relay {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let toBrowser = 0;
  let audio = 0;
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
          upstream.on("data", (chunk: Buffer) => {
            toBrowser += chunk.length;
            audio += audioBytesIn(chunk);
          });
          client.pipe(upstream).pipe(client);
        });
        listening.once("error", reject);
        listening.listen(port, "127.0.0.1", () => {
          server = listening;
          resolve();
        });
      }),
    bytesToBrowser: () => toBrowser,
    audioBytesToBrowser: () => audio,
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
