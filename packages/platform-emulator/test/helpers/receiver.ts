import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  /** Path and query exactly as the request line carried them. */
  rawUrl: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Reply = { status: number; body?: string } | "hang";

/**
 * A real HTTP receiver on 127.0.0.1 for webhook and redirect tests. `reply` decides per request;
 * "hang" never answers (until close).
 */
export async function startReceiver(
  reply: (req: ReceivedRequest) => Reply = () => ({ status: 200 }),
) {
  const received: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry: ReceivedRequest = {
        method: req.method ?? "",
        rawUrl: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(entry);
      const answer = reply(entry);
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { "Content-Type": "text/plain" }).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}

/** A 127.0.0.1 URL where nothing listens (a port that was free a moment ago). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return `http://127.0.0.1:${port}`;
}
