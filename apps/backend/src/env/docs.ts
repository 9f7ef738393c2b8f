import { envVariables } from "./env.ts";

type EnvName = keyof typeof envVariables.shape;

/**
 * One line per environment variable, for the table in docs/self-hosting.md (written by
 * `pnpm --filter @overture/backend docs:env`; a test fails when the two drift). A variable added
 * to env.ts without a line here does not compile.
 */
export const ENV_DESCRIPTIONS: Record<EnvName, string> = {
  PORT: "Port the HTTP server listens on.",
  HOST: "Address it listens on: `0.0.0.0` in a container or behind a proxy on another host.",
  PUBLIC_URL:
    "The backend's public base URL. The OAuth callback is `${PUBLIC_URL}/oauth/callback`; webhooks arrive at `${PUBLIC_URL}/webhooks/platform`. Unset: `http://<HOST>:<PORT>` (`127.0.0.1` for a wildcard HOST); `check-config` warns when it names this machine on another port than PORT.",
  PLATFORM_BASE_URL:
    "The platform's `{base_url}`: authorization page, token endpoint and open endpoints.",
  PLATFORM_API_URL: "The platform's `{api_url}` for task endpoints. Unset: PLATFORM_BASE_URL.",
  PLATFORM_CLIENT_ID: "Client id of the third-party application created on the platform.",
  PLATFORM_CLIENT_SECRET: "Its client secret. Server-side only: never in the extension or a log.",
  PLATFORM_CLIENT_AUTH:
    "How the token endpoint is authenticated: `basic`, `basic-rfc6749` (form-encoded first) or `form`.",
  EXTENSION_REDIRECT_URLS:
    "Comma-separated redirect URLs the extension may return to after sign-in (its options page shows them).",
  EXTENSION_ORIGINS:
    "Comma-separated extension origins allowed by CORS: `chrome-extension://<id>`, `moz-extension://<uuid>`.",
  DATABASE_URL:
    "Postgres connection URL, with the user name and password percent-encoded (`/` is `%2F`). Unset: embedded PGlite in PGLITE_DATA_DIR.",
  PGLITE_DATA_DIR: "Data folder of the embedded database when DATABASE_URL is unset.",
  TOKEN_ENCRYPTION_KEYS:
    "`<key id>:<base64 of 32 bytes>`, comma-separated: the first encrypts, all decrypt (rotation).",
  WEBHOOK_TOLERANCE_SECONDS: "Accepted age of a webhook's signature timestamp, either way.",
  WEBHOOK_SECRET_GRACE_SECONDS: "How long the previous webhook secret stays valid after a reset.",
  WEBHOOK_MAX_BODY_BYTES: "Largest accepted webhook body.",
  HTTP_REQUEST_TIMEOUT_SECONDS: "Longest time a client may take to send a whole request.",
  HTTP_KEEP_ALIVE_SECONDS:
    "How long an idle keep-alive connection stays open. Keep it above your proxy's idle timeout.",
  SESSION_TTL_DAYS: "Sliding lifetime of an extension session.",
  TASK_STALE_SUBMIT_SECONDS:
    "A task still submitting after this long was orphaned by a crash and turns `unknown`.",
  SSE_MAX_STREAMS_PER_USER: "Live-event streams one user may hold on one instance.",
  SSE_MAX_STREAM_SECONDS:
    "A live-event stream is ended (and resumed by the client) after this long.",
  METRICS_TOKEN: "Bearer token `/metrics` requires (16+ characters). Unset: `/metrics` is public.",
  NODE_ENV: "`production` turns on the warnings about a public `/metrics`.",
  ARCHIVE_STORAGE:
    "Where results are archived: `postgres` (chunks every instance reads), `folder` (`ARCHIVE_DIR`) or `off`. Unset: `folder` if `ARCHIVE_DIR` is set or the database is PGlite, else `postgres`.",
  ARCHIVE_DIR:
    "Folder for `ARCHIVE_STORAGE=folder`; set alone it means `folder`. Unset on PGlite: `<PGLITE_DATA_DIR>-archive`. Files archived there are read from it whatever the storage is now.",
  ARCHIVE_ALLOWED_HOSTS:
    "Hosts besides PLATFORM_BASE_URL's the archiver may download from (`host` or `host:port`).",
  ARCHIVE_MAX_FILE_MB: "Largest result file archived; a larger one fails `file_too_large`.",
  ARCHIVE_QUOTA_MB:
    "Archive space per user, originals and MP3 renditions together; `0`: no limit. Over it, the result is not archived and the user is told.",
  ARCHIVE_RETENTION_DAYS:
    "Archived results older than this are removed and the task shows `expired`; `0`: kept for ever.",
  TRUST_PROXY:
    "Reverse proxies in front (`true`: one, or a number): the client address for rate limits is the `X-Forwarded-For` entry the outermost one wrote, counted from the right. `false` with no proxy.",
  LOG_LEVEL:
    "`fatal`, `error`, `warn`, `info` (one line per request), `debug`, `trace` or `silent`.",
  RETENTION_WEBHOOK_EVENTS_DAYS:
    "Accepted webhook deliveries (duplicate detection) are kept this long.",
  RETENTION_TASK_EVENTS_DAYS:
    "Task changes kept for live-event replay (`Last-Event-ID`); tasks themselves are kept.",
  RETENTION_WEBHOOK_REJECTIONS_DAYS:
    "Refused webhook deliveries (troubleshooting) are kept this long.",
  RETENTION_EXPIRED_SIGN_IN_HOURS:
    "Sign-in attempts and hand-off codes are deleted this long after they expire.",
  RETENTION_INTERVAL_MINUTES: "How often each instance runs the retention round.",
  RELAY_ENABLED:
    "`true` turns on relay channels for `overture-webhooks listen` (`/relay/…`, `/api/relay/…`) and its command-line sign-in (`/auth/device`, `/device`). Off: all of them answer 404.",
  RELAY_CHANNELS_PER_USER: "Relay channels one user may have.",
  RELAY_DELIVERIES_PER_MINUTE:
    "Deliveries one relay channel accepts a minute (a burst of as many, then refilled steadily); more answer 429.",
  RELAY_BUFFER_DELIVERIES:
    "Deliveries one relay channel holds for its listener (kept 5 minutes, for a reconnect); a full buffer answers 503 and the platform retries.",
  RELAY_BUFFER_KB:
    "Bytes (KiB) of bodies and headers one relay channel holds for its listener; a full buffer answers 503. A delivery's body is limited by WEBHOOK_MAX_BODY_BYTES.",
};

/** What a variable is when unset: its default, `unset`, or `required`. */
function defaultOf(name: EnvName): string {
  const parsed = envVariables.shape[name].safeParse(undefined);
  if (!parsed.success) return "required";
  const value: unknown = parsed.data;
  if (value === undefined) return "unset";
  if (Array.isArray(value)) return value.length === 0 ? "empty" : `\`${value.join(",")}\``;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return `\`${String(value)}\``;
  throw new Error(`${name}: a default of an unexpected kind`);
}

/** The Markdown table of every variable, its default and what it does. */
export function envTable(): string {
  const rows = (Object.keys(ENV_DESCRIPTIONS) as EnvName[]).map(
    (name) =>
      `| \`${name}\` | ${defaultOf(name)} | ${ENV_DESCRIPTIONS[name].replaceAll("|", "\\|")} |`,
  );
  return ["| Variable | Default | What it does |", "| --- | --- | --- |", ...rows].join("\n");
}
