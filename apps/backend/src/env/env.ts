import { z } from "zod";
import { type HostEntry, parseHostEntry } from "../lib/host-allowlist.ts";

/**
 * The backend's configuration, parsed once from the environment. Every variable is documented in
 * `.env.example`. A bad or missing value stops start-up with every problem listed at once.
 */
const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

// A missing value gets the same "is required" as every other required variable, not a URL rule.
const httpUrl = z
  .url({
    protocol: /^https?$/,
    error: (issue) =>
      issue.input === undefined ? "is required" : "must be an absolute http(s) URL",
  })
  .transform((value) => value.replace(/\/+$/, ""));

/** `kid:base64` pairs; the first key encrypts, every key decrypts (rotation). */
const encryptionKeys = z
  .string({ error: "is required: generate one with `openssl rand -base64 32`" })
  .transform((value, ctx) => {
    const keys: { id: string; key: string }[] = [];
    for (const item of value.split(",").map((part) => part.trim())) {
      const separator = item.indexOf(":");
      const id = separator > 0 ? item.slice(0, separator) : "";
      const key = item.slice(separator + 1);
      if (!/^[A-Za-z0-9_-]{1,16}$/.test(id) || !isBase64Key(key)) {
        ctx.addIssue({
          code: "custom",
          message: "each entry must be `<key-id>:<base64 of 32 random bytes>`",
        });
        return z.NEVER;
      }
      keys.push({ id, key });
    }
    if (new Set(keys.map((k) => k.id)).size !== keys.length) {
      ctx.addIssue({ code: "custom", message: "key ids must be unique" });
      return z.NEVER;
    }
    return keys;
  });

/** Extra hosts the archiver may download from; entries are named by position, never echoed. */
const hostEntries = csv.transform((entries, ctx) => {
  const hosts: HostEntry[] = [];
  entries.forEach((entry, index) => {
    const host = parseHostEntry(entry);
    if (host) hosts.push(host);
    else
      ctx.addIssue({
        code: "custom",
        message: `entry ${index + 1} must be a host name with an optional :port, like cdn.example.com or files.example.com:8443 (not a URL, path or wildcard)`,
      });
  });
  return hosts;
});

/**
 * 32 bytes in base64, as `openssl rand -base64 32` writes them (44 characters ending in `=`; the
 * padding may be left off). Checked by its shape, never decoded first: `atob` throws on some
 * malformed values ("not correctly encoded"), which would end every command with that alone.
 */
function isBase64Key(value: string): boolean {
  return (
    /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$/.test(value) &&
    Buffer.from(value, "base64").length === 32
  );
}

/**
 * Whether node-postgres can read the URL (pg-connection-string: `new URL`, retried with a
 * placeholder host for `postgres://user@/db`, the local socket). Without this check a password
 * holding `/` or `#`, as `openssl rand -base64` writes them, passed here and `serve` then died
 * on "TypeError: Invalid URL" naming no variable. The value is never echoed: it holds a password.
 */
function isConnectionUrl(value: string): boolean {
  // pg-connection-string encodes a space or a stray % itself before parsing.
  const text = / |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(value)
    ? encodeURI(value).replace(/%25(\d\d)/g, "%$1")
    : value;
  for (const candidate of [text, text.replace("@/", "@placeholder/")]) {
    try {
      const url = new URL(candidate);
      decodeURIComponent(url.username);
      decodeURIComponent(url.password);
      return true;
    } catch {
      // the next candidate, or not a URL
    }
  }
  return false;
}

const MB = 1024 * 1024;

/**
 * A whole number of at least `min`. Coercing "abc" gives NaN, whose zod text ("expected number,
 * received NaN") tells an operator nothing: every failure says what is expected instead.
 */
const wholeNumber = (min: number) =>
  z.coerce
    .number({ error: `must be a whole number, at least ${min}` })
    .int()
    .min(min);

const seconds = (fallback: number) => wholeNumber(1).default(fallback);

/** A retention age in days: at least one, so a row is never pruned while it is still in use. */
const days = (fallback: number) =>
  z.coerce
    .number({ error: "must be a whole number of days, at least 1" })
    .int()
    .min(1)
    .default(fallback);

/** The variables one by one, before they are shaped into {@link Config}; `check-config` probes these. */
export const envVariables = z.object({
  // 0 (any free port) stays accepted for tests and tools; operators are told the useful range.
  PORT: z.coerce
    .number({ error: "must be a port number 1–65535" })
    .int()
    .min(0)
    .max(65535)
    .default(8787),
  HOST: z.string().min(1).default("127.0.0.1"),
  // Unset: where this process listens (defaultPublicUrl), so PORT alone moves the callback too.
  PUBLIC_URL: httpUrl.optional(),
  PLATFORM_BASE_URL: httpUrl,
  PLATFORM_API_URL: httpUrl.optional(),
  PLATFORM_CLIENT_ID: z.string({ error: "is required" }).min(1, "is required"),
  PLATFORM_CLIENT_SECRET: z.string({ error: "is required" }).min(1, "is required"),
  PLATFORM_CLIENT_AUTH: z.enum(["basic", "basic-rfc6749", "form"]).default("basic"),
  EXTENSION_REDIRECT_URLS: csv.pipe(
    z.array(
      z
        .string()
        .regex(
          /^https:\/\/[^/?#]+\/[^?#]*$/,
          "each must be an https URL without query, e.g. https://<id>.chromiumapp.org/",
        ),
    ),
  ),
  EXTENSION_ORIGINS: csv.pipe(
    z.array(
      z
        .string()
        .regex(
          /^(chrome-extension|moz-extension):\/\/[a-z0-9-]+$/,
          "must be chrome-extension://<id> or moz-extension://<uuid>",
        ),
    ),
  ),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .refine(isConnectionUrl, {
      abort: true,
      message:
        "is not a valid URL: percent-encode the user name and password (/ is %2F, + is %2B, = is %3D, # is %23, @ is %40), and check the host and port",
    })
    .optional(),
  PGLITE_DATA_DIR: z.string().min(1).default(".data/pglite"),
  TOKEN_ENCRYPTION_KEYS: encryptionKeys,
  WEBHOOK_TOLERANCE_SECONDS: seconds(300),
  WEBHOOK_SECRET_GRACE_SECONDS: seconds(86_400),
  WEBHOOK_MAX_BODY_BYTES: wholeNumber(1024).default(262_144),
  HTTP_REQUEST_TIMEOUT_SECONDS: seconds(30),
  HTTP_KEEP_ALIVE_SECONDS: seconds(65),
  SESSION_TTL_DAYS: seconds(30),
  TASK_STALE_SUBMIT_SECONDS: seconds(120),
  SSE_MAX_STREAMS_PER_USER: wholeNumber(1).default(16),
  SSE_MAX_STREAM_SECONDS: z.coerce
    .number({ error: "must be a whole number, at least 60" })
    .int()
    .min(60, "must be at least 60: each time a stream ends its client reconnects")
    .default(3600),
  METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters: generate one with `openssl rand -hex 32`")
    .regex(/^[A-Za-z0-9._~+/-]+=*$/, "must be a bearer token: letters, digits and -._~+/ only")
    .optional(),
  NODE_ENV: z.string().optional(),
  ARCHIVE_STORAGE: z.enum(["postgres", "folder", "off"]).optional(),
  ARCHIVE_DIR: z.string().min(1).optional(),
  ARCHIVE_ALLOWED_HOSTS: hostEntries,
  ARCHIVE_MAX_FILE_MB: wholeNumber(1).default(200),
  ARCHIVE_QUOTA_MB: wholeNumber(0).default(2048),
  ARCHIVE_RETENTION_DAYS: wholeNumber(0).default(0),
  // How many reverse proxies stand in front: `true` is one, a number says how many.
  TRUST_PROXY: z
    .string()
    .transform((value, ctx) => {
      if (/^\d{1,2}$/.test(value)) return Number(value);
      const yes = z.stringbool().safeParse(value);
      if (yes.success) return yes.data ? 1 : 0;
      ctx.addIssue({
        code: "custom",
        message: "must be true, false, or the number of proxies in front (1 for one)",
      });
      return z.NEVER;
    })
    .default(0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  RETENTION_WEBHOOK_EVENTS_DAYS: days(30),
  RETENTION_TASK_EVENTS_DAYS: days(30),
  RETENTION_WEBHOOK_REJECTIONS_DAYS: days(30),
  RETENTION_EXPIRED_SIGN_IN_HOURS: wholeNumber(1).default(24),
  RETENTION_INTERVAL_MINUTES: wholeNumber(1).default(60),
  RELAY_ENABLED: z.stringbool({ error: "must be true or false" }).default(false),
  RELAY_CHANNELS_PER_USER: wholeNumber(1).default(10),
  RELAY_DELIVERIES_PER_MINUTE: wholeNumber(1).default(60),
  RELAY_BUFFER_DELIVERIES: wholeNumber(1).default(100),
  RELAY_BUFFER_KB: wholeNumber(64).default(4096),
});

/** Addresses that mean "every interface": a browser or the platform cannot be sent to them. */
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * PUBLIC_URL when unset: this process's own address, `http://<HOST>:<PORT>`, with 127.0.0.1 for
 * a wildcard HOST. It serves a setup without a proxy (a laptop, the emulator); anything reached
 * through a proxy or from another machine sets PUBLIC_URL.
 */
export function defaultPublicUrl(host: string, port: number): string {
  const name = WILDCARD_HOSTS.has(host) ? "127.0.0.1" : host;
  return `http://${name.includes(":") && !name.startsWith("[") ? `[${name}]` : name}:${port}`;
}

/**
 * Where new results are stored, and the folder of folder storage. ARCHIVE_DIR alone keeps meaning
 * `folder` (earlier releases). Unset on PGlite: a folder beside the data folder, because PGlite
 * runs in this process and writing a 46 MB track into it holds every other request for seconds,
 * and no other instance can share a PGlite database anyway. Files are read from where each was
 * stored, so a change of storage loses none.
 */
function archiveOf(env: {
  DATABASE_URL?: string | undefined;
  PGLITE_DATA_DIR: string;
  ARCHIVE_STORAGE?: "postgres" | "folder" | "off" | undefined;
  ARCHIVE_DIR?: string | undefined;
}) {
  const onPglite = !env.DATABASE_URL;
  const storage =
    env.ARCHIVE_STORAGE ?? (env.ARCHIVE_DIR !== undefined || onPglite ? "folder" : "postgres");
  const besideData = onPglite ? `${env.PGLITE_DATA_DIR.replace(/[/\\]+$/, "")}-archive` : undefined;
  /** Files archived to a folder are read from here whatever `storage` says now. */
  const dir = env.ARCHIVE_DIR ?? besideData;
  return { storage, dir };
}

export const envSchema = envVariables
  .superRefine((env, ctx) => {
    // On PGlite a folder next to the data folder is the default (archiveOf).
    if (env.ARCHIVE_STORAGE === "folder" && env.ARCHIVE_DIR === undefined && env.DATABASE_URL)
      ctx.addIssue({
        code: "custom",
        path: ["ARCHIVE_DIR"],
        message: "is required when ARCHIVE_STORAGE=folder: the folder archived results go to",
      });
  })
  .transform((env) => ({
    port: env.PORT,
    host: env.HOST,
    publicUrl: env.PUBLIC_URL ?? defaultPublicUrl(env.HOST, env.PORT),
    platform: {
      baseUrl: env.PLATFORM_BASE_URL,
      apiUrl: env.PLATFORM_API_URL ?? env.PLATFORM_BASE_URL,
      clientId: env.PLATFORM_CLIENT_ID,
      clientSecret: env.PLATFORM_CLIENT_SECRET,
      clientAuth: env.PLATFORM_CLIENT_AUTH,
    },
    extension: { redirectUrls: env.EXTENSION_REDIRECT_URLS, origins: env.EXTENSION_ORIGINS },
    database: env.DATABASE_URL
      ? ({ driver: "pg", url: env.DATABASE_URL } as const)
      : ({ driver: "pglite", dataDir: env.PGLITE_DATA_DIR } as const),
    encryptionKeys: env.TOKEN_ENCRYPTION_KEYS,
    webhook: {
      toleranceMs: env.WEBHOOK_TOLERANCE_SECONDS * 1000,
      secretGraceMs: env.WEBHOOK_SECRET_GRACE_SECONDS * 1000,
      maxBodyBytes: env.WEBHOOK_MAX_BODY_BYTES,
    },
    http: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveMs: env.HTTP_KEEP_ALIVE_SECONDS * 1000,
    },
    sessionTtlMs: env.SESSION_TTL_DAYS * 86_400_000,
    /** A `submitting` task older than this was orphaned by a crash mid-submit: it turns `unknown`. */
    tasks: { staleSubmitMs: env.TASK_STALE_SUBMIT_SECONDS * 1000 },
    /** Per stream: the route hands these to the event hub with each stream it opens. */
    sse: {
      maxPerUser: env.SSE_MAX_STREAMS_PER_USER,
      maxLifetimeMs: env.SSE_MAX_STREAM_SECONDS * 1000,
    },
    /** Unset: `/metrics` is public, and start-up warns about it in production. */
    metricsToken: env.METRICS_TOKEN,
    production: env.NODE_ENV === "production",
    archive: {
      ...archiveOf(env),
      /** Hosts besides PLATFORM_BASE_URL's origin that result files may be downloaded from. */
      allowedHosts: env.ARCHIVE_ALLOWED_HOSTS,
      maxFileBytes: env.ARCHIVE_MAX_FILE_MB * MB,
      /** Per user, originals and renditions together; null: no limit. */
      quotaBytes: env.ARCHIVE_QUOTA_MB === 0 ? null : env.ARCHIVE_QUOTA_MB * MB,
      /** Archived files older than this are removed; null: kept for ever. */
      retentionMs:
        env.ARCHIVE_RETENTION_DAYS === 0 ? null : env.ARCHIVE_RETENTION_DAYS * 86_400_000,
    },
    /** Reverse proxies in front whose X-Forwarded-For entries count (0: none, use the socket). */
    trustedProxies: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    /** How long rows that only serve troubleshooting or replay are kept (services/retention). */
    retention: {
      webhookEventsMs: env.RETENTION_WEBHOOK_EVENTS_DAYS * 86_400_000,
      taskEventsMs: env.RETENTION_TASK_EVENTS_DAYS * 86_400_000,
      webhookRejectionsMs: env.RETENTION_WEBHOOK_REJECTIONS_DAYS * 86_400_000,
      expiredSignInMs: env.RETENTION_EXPIRED_SIGN_IN_HOURS * 3_600_000,
      intervalMs: env.RETENTION_INTERVAL_MINUTES * 60_000,
    },
    /** The developer relay (`overture-webhooks listen`) and the CLI sign-in that reaches it. */
    relay: {
      enabled: env.RELAY_ENABLED,
      channelsPerUser: env.RELAY_CHANNELS_PER_USER,
      /** Per channel: a burst of this many, refilled at this rate. */
      deliveriesPerMinute: env.RELAY_DELIVERIES_PER_MINUTE,
      /** What one channel's buffer holds at most, in deliveries and in bytes. */
      bufferDeliveries: env.RELAY_BUFFER_DELIVERIES,
      bufferBytes: env.RELAY_BUFFER_KB * 1024,
    },
  }));

export type Config = z.output<typeof envSchema>;
export type DatabaseConfig = Config["database"];

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/**
 * An empty value counts as unset: compose files and env files write `NAME=` or `${NAME:-}` for
 * "not set", and a default applies rather than a refusal of the empty string.
 */
export function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]),
  );
}

/** Parses the environment; throws a {@link ConfigError} that lists every problem. */
export function parseEnv(env: Record<string, string | undefined>): Config {
  const result = envSchema.safeParse(withoutEmpty(env));
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`),
  );
}

/**
 * The configuration of this process: `process.env` parsed, the only place the backend reads it.
 * A bad environment ends the process here, listing every problem and where they are documented.
 */
export function loadConfig(): Config {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${error.message}\nSee apps/backend/.env.example for every variable.`);
    // 2, as every `overture-backend` command exits for a wrong configuration (cli/io.ts EXIT).
    process.exit(2);
  }
}

/** The process's environment, for check-config's reading of it (check.ts). */
export const processEnvironment = (): Record<string, string | undefined> => process.env;
