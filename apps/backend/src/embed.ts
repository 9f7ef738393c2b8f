/**
 * `@overture/backend/server`: what a program needs to run the backend inside itself (the local
 * stack, the extension's browser tests): build it from a parsed environment, listen, stop on
 * signals. The `overture-backend serve` command does the same for itself (cli/serve.ts).
 */
export { createBackend, type Backend, type BackendOverrides } from "./backend.ts";
export { ConfigError, parseEnv, type Config } from "./env/env.ts";
export { freePort } from "./server/free-port.ts";
export { closeOnSignals, listen, nodeFetch, type RunningServer } from "./server/listen.ts";
