import { createServer } from "node:net";

/**
 * A port on 127.0.0.1 that was free a moment ago: for a program that must know a server's
 * address before it listens (a backend's public URL, an emulator's redirect URI). Another
 * process may take it meanwhile; callers that cannot retry listen on port 0 instead.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}
