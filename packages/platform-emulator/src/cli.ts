#!/usr/bin/env node
import { parseCliArgs, USAGE, type CliConfig } from "./cli-args.ts";
import { CONTROL_PREFIX } from "./routes/control.ts";
import { loadSeedFile } from "./seed/load.ts";
import { seedFor } from "./seed/seed-for.ts";
import { startPlatformEmulator, type RunningEmulator } from "./server.ts";

async function main(): Promise<void> {
  let config: CliConfig;
  try {
    config = parseCliArgs(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (config.help) {
    console.log(USAGE);
    return;
  }
  const loaded = config.seedFile ? await loadSeedFile(config.seedFile) : undefined;
  const seed = config.backendUrl
    ? seedFor({ backendUrl: config.backendUrl, ...(loaded ? { seed: loaded } : {}) })
    : loaded;
  const running = await startPlatformEmulator({
    host: config.host,
    port: config.port,
    apiPort: config.apiPort,
    baseUrl: config.publicUrl,
    apiUrl: config.publicApiUrl,
    seed,
    profile: config.profile,
    speed: config.speed,
    clockScale: config.scale,
    ...(config.failureRate !== undefined ? { timing: { failureRate: config.failureRate } } : {}),
    autoApprove: config.autoApprove,
    queryReading: config.queryReading,
    refreshTokenRotation: config.rotation,
    basicAuthEncoding: config.basicAuthEncoding,
    ...(config.quotaRetryAfter !== undefined
      ? { quotaRetryAfterSeconds: config.quotaRetryAfter }
      : {}),
    ...(config.timestampClock !== undefined
      ? { webhook: { timestampClock: config.timestampClock } }
      : {}),
    dataDir: config.dataDir,
    stateFile: config.stateFile,
  });
  console.log(banner(running, config));
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function banner(running: RunningEmulator, config: CliConfig): string {
  const s = running.control.snapshot();
  const lines = [
    "platform emulator running",
    `  base_url  ${running.url}`,
    `  api_url   ${running.apiUrl}`,
    `  console   ${running.url}${CONTROL_PREFIX}/console   (control API ${running.url}${CONTROL_PREFIX}/)`,
    `  state     ${config.stateFile ?? config.dataDir ?? "in memory only (--data-dir keeps it across restarts)"}`,
    `  profile ${config.profile}, speed ${config.speed}, clock scale ${config.scale}×, auto-approve ${config.autoApprove ? "on" : "off"}, ` +
      `refresh rotation ${config.rotation}, query reading ${config.queryReading}, ` +
      `Basic auth ${config.basicAuthEncoding}, quota 429 Retry-After ${config.quotaRetryAfter === undefined ? "none" : `${config.quotaRetryAfter} s`}, ` +
      `X-Sign-Timestamp on the ${running.emulator.options.timestampClock} clock`,
    "",
    "applications:",
    ...s.applications.map(
      (a) =>
        `  ${a.name}: client_id=${a.client_id} client_secret=${a.client_secret}\n    redirect_uri=${a.redirect_uri}`,
    ),
    "users:",
    ...s.users.map((u) => `  ${u.id} ${u.login} (${u.name})`),
    "accounts (quota, webhook secret):",
    ...s.accounts.map(
      (a) =>
        `  ${a.namespace} [${a.kind}] quota=${a.quota} webhook_secret=${a.webhook_secret || "(empty: no callbacks)"}`,
    ),
    "access tokens (raw values work as API tokens):",
    ...s.access_tokens.map(
      (t) => `  ${t.namespace}/${t.id} ${t.name} [${t.usage_scenario}] ${t.value}`,
    ),
  ];
  if (config.host !== "127.0.0.1" && config.host !== "localhost" && config.host !== "::1")
    lines.push("", `warning: bound to ${config.host}; the control plane has no authentication.`);
  return lines.join("\n");
}

await main();
