import { parseArgs } from "node:util";
import type { BasicAuthEncoding, QueryReading, RefreshRotation } from "./options.ts";
import type { ProfileName } from "./profile.ts";

export interface CliConfig {
  host: string;
  port: number;
  apiPort: number | undefined;
  publicUrl: string | undefined;
  publicApiUrl: string | undefined;
  seedFile: string | undefined;
  backendUrl: string | undefined;
  dataDir: string | undefined;
  stateFile: string | undefined;
  profile: ProfileName;
  speed: "demo" | "spec";
  scale: number;
  failureRate: number | undefined;
  autoApprove: boolean;
  queryReading: QueryReading;
  rotation: RefreshRotation;
  basicAuthEncoding: BasicAuthEncoding;
  quotaRetryAfter: number | undefined;
  help: boolean;
}

export const USAGE = `platform-emulator — a local stand-in for the platform (OAuth, open API, async tasks, webhooks)

Options (flag, or environment variable):
  --host <addr>            PLATFORM_EMULATOR_HOST          bind address (default 127.0.0.1: the control plane has no auth)
  --port <n>               PLATFORM_EMULATOR_PORT          {base_url} port (default 4010; 0 = any free port)
  --api-port <n>           PLATFORM_EMULATOR_API_PORT      serve {api_url} on its own port (default: share --port)
  --public-url <url>       PLATFORM_EMULATOR_PUBLIC_URL    base_url to emit when behind a proxy
  --public-api-url <url>   PLATFORM_EMULATOR_PUBLIC_API_URL
  --seed <file.json>       PLATFORM_EMULATOR_SEED          console resources (default: the demo identities)
  --backend-url <url>      PLATFORM_EMULATOR_BACKEND_URL   register every seeded app's redirect_uri at <url>/oauth/callback
  --data-dir <dir>         PLATFORM_EMULATOR_DATA_DIR      keep state in <dir> so a restart loses nothing (default: memory only)
  --state-file <file>      PLATFORM_EMULATOR_STATE_FILE    the same, naming the state file itself
  --profile readable|live  PLATFORM_EMULATOR_PROFILE       answer shapes: readable (default) or as the live platform does
  --speed demo|spec        PLATFORM_EMULATOR_SPEED         task durations: seconds, or the spec's 1-10 minutes
  --scale <x>              PLATFORM_EMULATOR_SCALE         clock scale (e.g. 60 with --speed spec)
  --failure-rate <0..1>    PLATFORM_EMULATOR_FAILURE_RATE  share of tasks that fail (seeded, repeatable)
  --auto-approve           PLATFORM_EMULATOR_AUTO_APPROVE=1  approve consent at once (headless demos)
  --query-reading raw|form-decoded|percent-decoded  PLATFORM_EMULATOR_QUERY_READING  how callback queries are signed
  --rotation off|rotate|rotate-detect-reuse  PLATFORM_EMULATOR_ROTATION  refresh-token rotation
  --basic-auth-encoding spec|rfc6749|either  PLATFORM_EMULATOR_BASIC_AUTH_ENCODING  reading of Basic client credentials (default spec)
  --quota-retry-after <s>  PLATFORM_EMULATOR_QUOTA_RETRY_AFTER  send Retry-After: <s> with a submit's 429 above the quota (default: none)
  --help`;

/** Reads flags, then environment variables, then defaults; throws listing every bad value. */
export function parseCliArgs(argv: string[], env: Record<string, string | undefined>): CliConfig {
  const { values } = parseArgs({
    // `pnpm start -- <flags>` hands the `--` on to the script (pnpm ≥ 7); npm and npx drop it.
    args: argv[0] === "--" ? argv.slice(1) : argv,
    strict: true,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "api-port": { type: "string" },
      "public-url": { type: "string" },
      "public-api-url": { type: "string" },
      seed: { type: "string" },
      "backend-url": { type: "string" },
      "data-dir": { type: "string" },
      "state-file": { type: "string" },
      profile: { type: "string" },
      speed: { type: "string" },
      scale: { type: "string" },
      "failure-rate": { type: "string" },
      "auto-approve": { type: "boolean" },
      "query-reading": { type: "string" },
      rotation: { type: "string" },
      "basic-auth-encoding": { type: "string" },
      "quota-retry-after": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const errors: string[] = [];
  const pick = (flag: keyof typeof values, name: string) => {
    const v = values[flag] ?? env[`PLATFORM_EMULATOR_${name}`];
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const num = (text: string | undefined, label: string, ok: (n: number) => boolean) => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!ok(n)) errors.push(`${label}: invalid value ${JSON.stringify(text)}`);
    return n;
  };
  const oneOf = <T extends string>(
    text: string | undefined,
    label: string,
    allowed: readonly T[],
    fallback: T,
  ): T => {
    if (text === undefined) return fallback;
    if ((allowed as readonly string[]).includes(text)) return text as T;
    errors.push(`${label}: expected ${allowed.join(" | ")}, got ${JSON.stringify(text)}`);
    return fallback;
  };
  const isPort = (n: number) => Number.isInteger(n) && n >= 0 && n <= 65535;
  const config: CliConfig = {
    host: pick("host", "HOST") ?? "127.0.0.1",
    port: num(pick("port", "PORT"), "--port", isPort) ?? 4010,
    apiPort: num(pick("api-port", "API_PORT"), "--api-port", isPort),
    publicUrl: pick("public-url", "PUBLIC_URL"),
    publicApiUrl: pick("public-api-url", "PUBLIC_API_URL"),
    seedFile: pick("seed", "SEED"),
    dataDir: pick("data-dir", "DATA_DIR"),
    stateFile: pick("state-file", "STATE_FILE"),
    backendUrl: httpUrl(pick("backend-url", "BACKEND_URL"), "--backend-url", errors),
    profile: oneOf(pick("profile", "PROFILE"), "--profile", ["readable", "live"], "readable"),
    speed: oneOf(pick("speed", "SPEED"), "--speed", ["demo", "spec"], "demo"),
    scale: num(pick("scale", "SCALE"), "--scale", (n) => n > 0 && Number.isFinite(n)) ?? 1,
    failureRate: num(
      pick("failure-rate", "FAILURE_RATE"),
      "--failure-rate",
      (n) => n >= 0 && n <= 1,
    ),
    autoApprove:
      values["auto-approve"] ??
      ["1", "true", "yes"].includes(env.PLATFORM_EMULATOR_AUTO_APPROVE ?? ""),
    queryReading: oneOf(
      pick("query-reading", "QUERY_READING"),
      "--query-reading",
      ["raw", "form-decoded", "percent-decoded"],
      "raw",
    ),
    rotation: oneOf(
      pick("rotation", "ROTATION"),
      "--rotation",
      ["off", "rotate", "rotate-detect-reuse"],
      "rotate",
    ),
    basicAuthEncoding: oneOf(
      pick("basic-auth-encoding", "BASIC_AUTH_ENCODING"),
      "--basic-auth-encoding",
      ["spec", "rfc6749", "either"],
      "spec",
    ),
    quotaRetryAfter: num(
      pick("quota-retry-after", "QUOTA_RETRY_AFTER"),
      "--quota-retry-after",
      (n) => Number.isInteger(n) && n >= 0,
    ),
    help: values.help ?? false,
  };
  if (errors.length > 0) throw new Error(`invalid options:\n  ${errors.join("\n  ")}`);
  return config;
}

function httpUrl(text: string | undefined, label: string, errors: string[]): string | undefined {
  if (text === undefined) return undefined;
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text))
    errors.push(`${label}: expected an http(s) URL, got ${JSON.stringify(text)}`);
  return text;
}
