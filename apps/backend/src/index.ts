import { createBackend } from "./backend.ts";
import { ConfigError, parseEnv, type Config } from "./env.ts";
import { closeOnSignals, listen } from "./server.ts";

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
const backend = await createBackend(config);
const server = await listen(backend, config.host, config.port);
backend.deps.logger.info({ url: server.url, database: backend.deps.database.driver }, "listening");
closeOnSignals([server], (message) => {
  backend.deps.logger.info(message);
});
