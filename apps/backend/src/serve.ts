/**
 * `@overture/backend/server`: what a program that runs the backend needs (the local stack, the
 * extension's browser tests): build it from a parsed environment, listen, stop on signals.
 */
export { createBackend, type Backend, type BackendOverrides } from "./backend.ts";
export { ConfigError, parseEnv, type Config } from "./env/env.ts";
export { freePort } from "./server/free-port.ts";
export { closeOnSignals, listen, nodeFetch, type RunningServer } from "./server/listen.ts";
