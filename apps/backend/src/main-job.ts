import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { DEFAULT_SEED } from "@overture/platform-emulator";
import { startPlatformEmulator } from "@overture/platform-emulator/server";
import { createBackend } from "./backend.ts";
import { parseEnv } from "./env.ts";
import { EXTENSION_ORIGINS, EXTENSION_REDIRECT_URLS } from "./main-job/identity.ts";
import { loadOrCreateState } from "./main-job/state.ts";
import { closeOnSignals, listen } from "./server.ts";

/**
 * The README's main job: the platform emulator and the backend on embedded PGlite, configured for
 * each other (the emulator's seeded OAuth app points at this backend, the demo account has a
 * webhook secret), then instructions for loading the built extension.
 */
const root = process.cwd();
const dataDir = resolve(process.env.OVERTURE_DATA_DIR ?? ".data");
const emulatorPort = Number(process.env.EMULATOR_PORT ?? 4010);
const backendPort = Number(process.env.PORT ?? 8787);
const state = loadOrCreateState(dataDir);
const [app] = DEFAULT_SEED.applications;

const emulator = await startPlatformEmulator({
  port: emulatorPort,
  seed: { ...DEFAULT_SEED, webhookSecrets: { demo: state.webhookSecret } },
});

const config = parseEnv({
  ...process.env,
  PORT: String(backendPort),
  PUBLIC_URL: `http://127.0.0.1:${backendPort}`,
  PLATFORM_BASE_URL: emulator.url,
  PLATFORM_CLIENT_ID: app.client_id,
  PLATFORM_CLIENT_SECRET: app.client_secret,
  EXTENSION_REDIRECT_URLS: EXTENSION_REDIRECT_URLS.join(","),
  EXTENSION_ORIGINS: EXTENSION_ORIGINS.join(","),
  PGLITE_DATA_DIR: resolve(dataDir, "pglite"),
  TOKEN_ENCRYPTION_KEYS: `main:${state.encryptionKey}`,
  DATABASE_URL: undefined,
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
});
const backend = await createBackend(config);
const server = await listen(backend, "127.0.0.1", backendPort);
closeOnSignals([server, emulator], (message) => {
  console.log(message);
});

const chrome = resolve(root, "apps/extension/.output/chrome-mv3");
const firefox = resolve(root, "apps/extension/.output/firefox-mv2");
const built = (path: string) =>
  existsSync(path) ? path : `${path} (not built: run \`pnpm build\`)`;

console.log(`
Overture is running.

  Backend          ${server.url}   (embedded Postgres in ${config.database.driver === "pglite" ? config.database.dataDir : "?"})
  API docs         ${server.url}/docs
  Platform         ${emulator.url}   (emulator; console: ${emulator.url}/__emulator/console)

Load the extension:
  Chrome   chrome://extensions → Developer mode → Load unpacked → ${built(chrome)}
  Firefox  about:debugging → This Firefox → Load Temporary Add-on → ${built(firefox)}/manifest.json

Then open Overture, press "Sign in", and approve on the emulator's consent page as
"Demo Listener" (login demo). Pick the access token "Studio (paid)", compose, submit.

Live callbacks: copy the demo account's webhook secret from the platform console (or
${resolve(dataDir, "main-job.json")}) into Overture's settings. Without it Overture polls the
platform instead; tasks finish either way.

Headless proof of the whole flow, in another terminal:  npx -y pnpm@10 demo
Stop with Ctrl+C.
`);
