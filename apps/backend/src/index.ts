import { openDatabase } from "./db/client.ts";
import { ConfigError, parseEnv, type Config } from "./env.ts";

// Wiring only: parse the environment, build the backend, listen, shut down gracefully.
function loadConfig(): Config {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${error.message}\nSee apps/backend/.env.example for every variable.`);
    process.exit(1);
  }
}

const config = loadConfig();
// The database connects and migrates while the app's modules load: the two overlap instead of
// adding up (start-up time is measured by `pnpm bench`, item 7).
const database = openDatabase(config.database).then(async (opened) => {
  await opened.migrate();
  return opened;
});
database.catch(() => undefined); // awaited below, where a failure stops start-up
const [{ createBackend }, { closeOnSignals, listen }] = await Promise.all([
  import("./backend.ts"),
  import("./server.ts"),
]);
const backend = await createBackend(config, { database: await database, ownDatabase: "migrated" });
const server = await listen(backend, config.host, config.port);
backend.deps.logger.info({ url: server.url, database: backend.deps.database.driver }, "listening");
closeOnSignals([server], (message) => {
  backend.deps.logger.info(message);
});
