import { openDatabase } from "./db/client.ts";
import { loadConfig } from "./env.ts";
import { openWhileLoading } from "./server/start-up.ts";

// Wiring only: parse the environment, build the backend, listen, shut down gracefully.
const config = loadConfig();
const [database, [{ createBackend }, { closeOnSignals, listen }]] = await openWhileLoading(
  openDatabase(config.database),
  Promise.all([import("./backend.ts"), import("./server/listen.ts")]),
);
const backend = await createBackend(config, { database, ownDatabase: "migrated" });
const server = await listen(backend, config.host, config.port);
backend.deps.logger.info({ url: server.url, database: backend.deps.database.driver }, "listening");
closeOnSignals([server], (message) => {
  backend.deps.logger.info(message);
});
