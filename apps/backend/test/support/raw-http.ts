import { connect, type Socket } from "node:net";

/**
 * HTTP spoken by hand over a TCP socket, for clients no fetch implementation would be: slow
 * ones that trickle bytes, and broken ones that send malformed framing.
 */
export interface RawExchange {
  /** Everything the server sent. */
  readonly received: string;
  /** The status code of the server's first response line, if any. */
  readonly status: number | undefined;
  /** Resolves once the server (or the network) closed the connection. */
  readonly closed: Promise<void>;
  readonly isClosed: boolean;
  write(data: string | Uint8Array): boolean;
  destroy(): void;
}

export function rawConnect(port: number): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let received = "";
    let isClosed = false;
    const closed = new Promise<void>((done) => {
      socket.on("close", () => {
        isClosed = true;
        done();
      });
    });
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    socket.on("error", () => undefined);
    socket.once("connect", () => {
      resolve({
        get received() {
          return received;
        },
        get status() {
          const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
          return match ? Number(match[1]) : undefined;
        },
        closed,
        get isClosed() {
          return isClosed;
        },
        write: (data) => !isClosed && socket.write(data),
        destroy: () => socket.destroy(),
      });
    });
    socket.once("error", reject);
  });
}

/** Sends `data` at once, waits for the server to answer and close (or `waitMs`), then closes. */
export async function rawExchange(
  port: number,
  data: string | Uint8Array,
  waitMs = 5_000,
): Promise<{ status: number | undefined; received: string }> {
  const exchange = await rawConnect(port);
  exchange.write(data);
  await Promise.race([
    exchange.closed,
    new Promise((resolve) => setTimeout(resolve, waitMs)),
    // A complete response to a request that keeps the connection open is enough.
    (async () => {
      while (!exchange.isClosed && !exchange.received.includes("\r\n\r\n"))
        await new Promise((resolve) => setTimeout(resolve, 10));
    })(),
  ]);
  exchange.destroy();
  return { status: exchange.status, received: exchange.received };
}

/**
 * Writes `data` one piece every `everyMs` until it is all sent or the server closes the
 * connection; resolves with how many bytes were sent before the server gave up on us.
 */
export async function trickle(
  exchange: RawExchange,
  data: string,
  everyMs: number,
  pieceBytes = 1,
): Promise<number> {
  let sent = 0;
  while (sent < data.length && !exchange.isClosed) {
    exchange.write(data.slice(sent, sent + pieceBytes));
    sent += pieceBytes;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return sent;
}
