import type { Config } from "../env/env.ts";
import { publicUrlWarning } from "../env/check.ts";
import { openWhileLoading } from "../server/start-up.ts";
import { openForCommand } from "./pglite-folder.ts";

/**
 * `overture-backend serve`: migrate (under the advisory lock, so instances starting together take
 * turns), listen, run the workers, and stop gracefully on SIGTERM / SIGINT. On PGlite the data
 * folder is locked while it runs, so maintenance commands refuse it (pglite-folder.ts).
 */
export async function serve(config: Config): Promise<void> {
  // Logged once the logger exists: a lock left by a crashed server on another host is taken over.
  const takenOver: string[] = [];
  const opening = openForCommand(config.database, "serve", {
    create: true,
    takeOverForeign: true,
    onTakeOver: (message) => takenOver.push(message),
  });
  const [{ database, release }, [{ createBackend }, { closeOnSignals, listen }]] =
    await openWhileLoading(
      opening.then((opened) => ({ ...opened, migrate: () => opened.database.migrate() })),
      Promise.all([import("../backend.ts"), import("../server/listen.ts")]),
    );
  const backend = await createBackend(config, { database, ownDatabase: "migrated" });
  for (const message of takenOver) backend.deps.logger.warn(message);
  const publicUrl = publicUrlWarning(config);
  if (publicUrl) backend.deps.logger.warn(publicUrl);
  const server = await listen(backend, config.host, config.port);
  backend.deps.logger.info(
    { url: server.url, database: backend.deps.database.driver },
    "listening",
  );
  // The lock goes once the database is closed (the backend closes it when the server stops).
  const stopping = {
    async close() {
      await server.close();
      release();
    },
  };
  closeOnSignals([stopping], (message) => {
    backend.deps.logger.info(message);
  });
}
