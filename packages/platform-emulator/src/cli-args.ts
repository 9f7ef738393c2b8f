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
  /** Unset: the option's default (the wall clock, as the CLI's clock is a real one). */
  timestampClock: "emulator" | "wall" | undefined;
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
  --timestamp-clock wall|emulator  PLATFORM_EMULATOR_TIMESTAMP_CLOCK  clock of X-Sign-Timestamp (default wall: receivers compare it with theirs)
  --help`;

const FLAGS = {
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
  "timestamp-clock": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Flag = keyof typeof FLAGS;

/** Reads flags, then environment variables, then defaults; throws listing every bad value. */
export function parseCliArgs(argv: string[], env: Record<string, string | undefined>): CliConfig {
  const { values } = parseArgs({
    // `pnpm start -- <flags>` hands the `--` on to the script (pnpm ≥ 7); npm and npx drop it.
    args: argv[0] === "--" ? argv.slice(1) : argv,
    strict: true,
    options: FLAGS,
  });
  const read = createReader(values, env);
  const isPort = (n: number) => Number.isInteger(n) && n >= 0 && n <= 65535;
  const config: CliConfig = {
    host: read.text("host") ?? "127.0.0.1",
    port: read.number("port", isPort) ?? 4010,
    apiPort: read.number("api-port", isPort),
    publicUrl: read.text("public-url"),
    publicApiUrl: read.text("public-api-url"),
    seedFile: read.text("seed"),
    dataDir: read.text("data-dir"),
    stateFile: read.text("state-file"),
    backendUrl: read.httpUrl("backend-url"),
    profile: read.oneOf("profile", ["readable", "live"]) ?? "readable",
    speed: read.oneOf("speed", ["demo", "spec"]) ?? "demo",
    scale: read.number("scale", (n) => n > 0 && Number.isFinite(n)) ?? 1,
    failureRate: read.number("failure-rate", (n) => n >= 0 && n <= 1),
    autoApprove:
      values["auto-approve"] ??
      ["1", "true", "yes"].includes(env.PLATFORM_EMULATOR_AUTO_APPROVE ?? ""),
    queryReading: read.oneOf("query-reading", ["raw", "form-decoded", "percent-decoded"]) ?? "raw",
    rotation: read.oneOf("rotation", ["off", "rotate", "rotate-detect-reuse"]) ?? "rotate",
    basicAuthEncoding: read.oneOf("basic-auth-encoding", ["spec", "rfc6749", "either"]) ?? "spec",
    quotaRetryAfter: read.number("quota-retry-after", (n) => Number.isInteger(n) && n >= 0),
    timestampClock: read.oneOf("timestamp-clock", ["emulator", "wall"]),
    help: values.help ?? false,
  };
  if (read.errors.length > 0) throw new Error(`invalid options:\n  ${read.errors.join("\n  ")}`);
  return config;
}

/**
 * Each flag's value, else its environment variable `PLATFORM_EMULATOR_<FLAG>` (upper case, `-`
 * → `_`); an empty value counts as unset. Bad values are collected in `errors`, so the command
 * lists every one at once.
 */
function createReader(
  values: Partial<Record<Flag, string | boolean>>,
  env: Record<string, string | undefined>,
) {
  const errors: string[] = [];
  const text = (flag: Flag): string | undefined => {
    const v = values[flag] ?? env[`PLATFORM_EMULATOR_${flag.toUpperCase().replace(/-/g, "_")}`];
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  return {
    errors,
    text,
    number(flag: Flag, ok: (n: number) => boolean): number | undefined {
      const given = text(flag);
      if (given === undefined) return undefined;
      const n = Number(given);
      if (!ok(n)) errors.push(`--${flag}: invalid value ${JSON.stringify(given)}`);
      return n;
    },
    oneOf<T extends string>(flag: Flag, allowed: readonly T[]): T | undefined {
      const given = text(flag);
      if (given === undefined || (allowed as readonly string[]).includes(given))
        return given as T | undefined;
      errors.push(`--${flag}: expected ${allowed.join(" | ")}, got ${JSON.stringify(given)}`);
      return undefined;
    },
    httpUrl(flag: Flag): string | undefined {
      const given = text(flag);
      if (given !== undefined && (!/^https?:\/\//i.test(given) || !URL.canParse(given)))
        errors.push(`--${flag}: expected an http(s) URL, got ${JSON.stringify(given)}`);
      return given;
    },
  };
}
