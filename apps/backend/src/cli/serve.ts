import { openDatabase } from "../db/client.ts";
import type { Config } from "../env.ts";
import { openWhileLoading } from "../server/start-up.ts";

/**
 * `overture-backend serve`: migrate (under the advisory lock, so instances starting together take
 * turns), listen, run the workers, and stop gracefully on SIGTERM / SIGINT.
 */
export async function serve(config: Config): Promise<void> {
  const [database, [{ createBackend }, { closeOnSignals, listen }]] = await openWhileLoading(
    openDatabase(config.database),
    Promise.all([import("../backend.ts"), import("../server/listen.ts")]),
  );
  const backend = await createBackend(config, { database, ownDatabase: "migrated" });
  const server = await listen(backend, config.host, config.port);
  backend.deps.logger.info(
    { url: server.url, database: backend.deps.database.driver },
    "listening",
  );
  closeOnSignals([server], (message) => {
    backend.deps.logger.info(message);
  });
}
