import { AUDIO_FORMATS, type AudioFormat, type AudioFormatName } from "./audio/format.ts";
import { isEmulatorClock, type ClockSource, type EmulatorClock } from "./clock/clock.ts";
import { PROFILE_DEFAULTS, PROFILES, type ProfileName, type ResponseShape } from "./profile.ts";
import { DEFAULT_SEED } from "./seed/default-seed.ts";
import { parseSeed, type EmulatorSeed, type EmulatorSeedInput } from "./seed/schema.ts";

/** The longest `duration` a submit takes, in seconds; also the default cap on audio length. */
export const MAX_DURATION_SECONDS = 600;

/** A fixed duration or an inclusive `[min, max]` range drawn from the seeded PRNG. */
export type DurationRange = number | readonly [number, number];

/**
 * How long each task stays in each status, and how many fail: the lifecycle plan of every task the
 * emulator runs. Start from a {@link TIMING_PRESETS} entry (`speed`) and override single fields
 * with the `timing` option, e.g. `{ failureRate: 1 }` to test a client's failure path.
 *
 * @example
 * ```ts
 * createPlatformEmulator({ clock: "manual", timing: { waitingMs: 0, runningMs: 2_000 } });
 * ```
 */
export interface TaskTiming {
  /** Time a task stays `waiting` before it starts. */
  waitingMs: DurationRange;
  /** Time a task stays `in_progress` before it ends. */
  runningMs: DurationRange;
  /** Share of tasks that end in `failure` (0–1). */
  failureRate: number;
  /** PRNG seed: the same seed and submission order give the same durations and failures. */
  seed: number;
}

/** `demo`: seconds; `spec`: the spec's "usually 1 to 10 minutes" (8). */
export const TIMING_PRESETS: Record<"demo" | "spec", TaskTiming> = {
  demo: { waitingMs: 1_000, runningMs: [3_000, 6_000], failureRate: 0, seed: 42 },
  spec: { waitingMs: [5_000, 30_000], runningMs: [55_000, 570_000], failureRate: 0.05, seed: 42 },
};

/**
 * How the callback query is read when signing: core's readings, spelled out here because the
 * published types must not import core, which the package bundles (passing it to core's signer
 * keeps it within core's readings at compile time).
 */
export type QueryReading = "raw" | "form-decoded" | "percent-decoded";
/**
 * How the token endpoint reads HTTP Basic client credentials: `spec` (4.2:
 * `base64(client_id:client_secret)` as is), `rfc6749` (form-decoded first, RFC 6749 2.3.1) or
 * `either`.
 */
export type BasicAuthEncoding = "spec" | "rfc6749" | "either";
/**
 * What the token endpoint does with a used refresh token (spec 4.3 is silent): `off` keeps it
 * valid, `rotate` (default) issues a new one and retires the old, `rotate-detect-reuse` also
 * revokes the whole grant when a retired token comes back, as OAuth 2.1 servers do. Pick the
 * strict one to prove a client stores each new refresh token before it uses it.
 *
 * @example
 * ```ts
 * createPlatformEmulator({ refreshTokenRotation: "rotate-detect-reuse" });
 * ```
 */
export type RefreshRotation = "off" | "rotate" | "rotate-detect-reuse";

/**
 * Everything {@link createPlatformEmulator} (and `startPlatformEmulator`, and the CLI's flags)
 * can set; every field is optional and {@link resolveOptions} fills in the defaults. Most tests
 * need only `clock: "manual"`, sometimes `profile: "live"` or `timing`.
 *
 * @example
 * ```ts
 * const options: PlatformEmulatorOptions = { clock: "manual", profile: "live", timing: { failureRate: 1 } };
 * const emu = createPlatformEmulator(options);
 * ```
 */
export interface PlatformEmulatorOptions {
  /**
   * `readable` (default): shapes easy to read in tests and logs. `live`: answers as the live
   * platform is known to (ids, pricing, `output.url`, both failure shapes, `usage_info: null`,
   * JSON submits, signed 7-day result links …; see the README). Default `readable`.
   */
  profile?: ProfileName;
  /** Overrides single fields of the profile's response shape (e.g. `{ outputUrlField: "url" }`). */
  shape?: Partial<ResponseShape>;
  /** Console resources; default: the project's demo identities (see README). */
  seed?: EmulatorSeedInput;
  /** Public `{base_url}` used in URLs the emulator emits. Default http://127.0.0.1:4010. */
  baseUrl?: string;
  /** Public `{api_url}`; default = baseUrl. */
  apiUrl?: string;
  /** `real` (default): wall time × scale; `manual`: only `control.clock.advance` moves time. */
  clock?: "real" | "manual" | ClockSource | EmulatorClock;
  /** Initial scale of the clock (e.g. 60 runs the spec timing a minute per second). */
  clockScale?: number;
  /** Lifecycle speed preset (default `demo`); `timing` overrides single fields. */
  speed?: "demo" | "spec";
  /** Single fields of the lifecycle plan over the `speed` preset's (e.g. `{ failureRate: 1 }`). */
  timing?: Partial<TaskTiming>;
  /** Consent page approves at once as the first user (headless demos). Default false. */
  autoApprove?: boolean;
  /** Used for webhook delivery; tests may route deliveries in-process. */
  fetch?: typeof fetch;
  /** How the emulator reads the callback query when signing (spec 4.9 is silent). Default raw. */
  queryReading?: QueryReading;
  /** Default `rotate`. */
  refreshTokenRotation?: RefreshRotation;
  /** Reading of Basic client credentials at the token endpoint. Default `spec`. */
  basicAuthEncoding?: BasicAuthEncoding;
  /** Lifetime of an OAuth access token (spec 4.3's `expires_in`). Default 7 200 s. */
  accessTokenTtlSeconds?: number;
  /** Lifetime of a refresh token. Default 30 days. */
  refreshTokenTtlSeconds?: number;
  /** Lifetime of a proxy token from the open endpoints (spec 4.5). Default 1 800 s. */
  proxyTokenTtlSeconds?: number;
  /** Lifetime of an authorization code. Default 60 s. */
  codeTtlSeconds?: number;
  /** How long the consent page waits for a decision. Default 600 s. */
  consentTtlSeconds?: number;
  /** Result download link validity. Default 24 h (spec 8); 7 days in the live profile. */
  fileTtlMs?: number;
  /** Audio length of a submit without `duration`. Default 30 s; 60 s in the live profile. */
  defaultDurationSeconds?: number;
  /**
   * Cap on the audio length in seconds; a capped task says so in `output` (`requested_duration`,
   * `notice`). Default 600, the longest duration the submit accepts: no cap.
   */
  maxAudioSeconds?: number;
  /**
   * WAV layout of results: `compact` 22.05 kHz mono, `studio` 48 kHz stereo (a 240 s track is
   * ~46 MB, like ACE-Step's). Default `compact`; `studio` in the live profile.
   */
  audioFormat?: AudioFormatName;
  /** Callback delivery: attempt timeout, retry schedule and the clock of the signature. */
  webhook?: {
    /** Per-attempt timeout in wall milliseconds (a network measure, not scaled). Default 10 000. */
    timeoutMs?: number;
    /** Automatic retry delays on the emulator clock (spec 8). */
    retryDelaysMs?: readonly number[];
    /**
     * Clock for X-Sign-Timestamp. Default `wall` when the emulator's clock runs on wall time
     * (`clock: "real"`, at any scale), since receivers check the timestamp against their own wall
     * clock; `emulator` when a test drives the time (`manual`, an injected source).
     */
    timestampClock?: "emulator" | "wall";
  };
  /** HS256 key for proxy tokens; default: random per emulator (tokens die with it). */
  proxyTokenKey?: string;
  /** A hanging task request answers 504 after this many wall ms unless the client leaves first. */
  hangMs?: number;
  /**
   * Seconds sent as `Retry-After` with the 429 of a submit above the quota (a non-negative
   * integer). Default none: the live answer is unknown (PLATFORM-FACTS), and clients must cope
   * without one; set it to test a client that honours it.
   */
  quotaRetryAfterSeconds?: number;
  /**
   * A folder to keep the emulator's state in (`platform-emulator-state.json`): apps, grants,
   * tokens, tasks, files, webhook secrets, deliveries, the token key and the clock survive a
   * restart from the same folder. Default: none (state lives in memory only).
   */
  dataDir?: string;
  /** The state file itself, instead of `dataDir`. */
  stateFile?: string;
}

/**
 * The options after defaults, as the emulator runs with them: what `emu.options` holds. Read it
 * to learn the URLs, lifetimes or timing a test got without setting them.
 *
 * @example
 * ```ts
 * const emu = createPlatformEmulator();
 * console.log(emu.options.baseUrl, emu.options.timing.failureRate); // http://127.0.0.1:4010 0
 * ```
 */
export interface ResolvedOptions {
  profile: ProfileName;
  shape: Readonly<ResponseShape>;
  seed: EmulatorSeed;
  baseUrl: string;
  apiUrl: string;
  timing: TaskTiming;
  autoApprove: boolean;
  /** What delivers callbacks: the `fetch` option, or the global `fetch`. */
  fetch: typeof fetch;
  queryReading: QueryReading;
  refreshTokenRotation: RefreshRotation;
  basicAuthEncoding: BasicAuthEncoding;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  proxyTokenTtlSeconds: number;
  codeTtlSeconds: number;
  consentTtlSeconds: number;
  fileTtlMs: number;
  defaultDurationSeconds: number;
  maxAudioSeconds: number;
  audioFormat: AudioFormat;
  webhookTimeoutMs: number;
  retryDelaysMs: readonly number[];
  timestampClock: "emulator" | "wall";
  hangMs: number;
  quotaRetryAfterSeconds: number | undefined;
}

/**
 * The `{base_url}` the emulator writes into the URLs it emits (task links, result files,
 * redirects) when `baseUrl` is not given; `startPlatformEmulator` passes the address it listens
 * on instead.
 *
 * @example
 * ```ts
 * createPlatformEmulator().options.baseUrl === DEFAULT_BASE_URL; // true
 * ```
 */
export const DEFAULT_BASE_URL = "http://127.0.0.1:4010";
/**
 * The platform's automatic webhook retry delays in ms (spec 8): 200 ms, 5 s, 15 s, 30 s and
 * 120 s after each failed attempt, on the emulator's clock. Pass a shorter list as
 * `webhook.retryDelaysMs` to test a receiver's recovery faster.
 *
 * @example
 * ```ts
 * const total = DEFAULT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0); // 170 200 ms to the last attempt
 * ```
 */
export const DEFAULT_RETRY_DELAYS_MS = [200, 5_000, 15_000, 30_000, 120_000] as const;

/**
 * Fills in every default of {@link PlatformEmulatorOptions} and checks what cannot work (an
 * unknown profile, a `Retry-After` that is not an integer), throwing a `TypeError`. The emulator
 * calls it itself; call it to see what a set of options resolves to without starting one.
 *
 * @example
 * ```ts
 * resolveOptions({ speed: "spec" }).timing.failureRate; // 0.05
 * ```
 */
export function resolveOptions(options: PlatformEmulatorOptions): ResolvedOptions {
  const baseUrl = trimSlash(options.baseUrl ?? DEFAULT_BASE_URL);
  const profile = options.profile ?? "readable";
  if (!(profile in PROFILES))
    throw new TypeError(`unknown profile ${JSON.stringify(profile)}: use "readable" or "live"`);
  const defaults = PROFILE_DEFAULTS[profile];
  return {
    profile,
    shape: { ...PROFILES[profile], ...options.shape },
    seed: parseSeed(options.seed ?? DEFAULT_SEED),
    baseUrl,
    apiUrl: trimSlash(options.apiUrl ?? baseUrl),
    timing: { ...TIMING_PRESETS[options.speed ?? "demo"], ...options.timing },
    autoApprove: options.autoApprove ?? false,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    queryReading: options.queryReading ?? "raw",
    refreshTokenRotation: options.refreshTokenRotation ?? "rotate",
    basicAuthEncoding: options.basicAuthEncoding ?? "spec",
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 7_200,
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 30 * 24 * 3_600,
    proxyTokenTtlSeconds: options.proxyTokenTtlSeconds ?? 1_800,
    codeTtlSeconds: options.codeTtlSeconds ?? 60,
    consentTtlSeconds: options.consentTtlSeconds ?? 600,
    fileTtlMs: options.fileTtlMs ?? defaults.fileTtlMs,
    defaultDurationSeconds: options.defaultDurationSeconds ?? defaults.defaultDurationSeconds,
    maxAudioSeconds: options.maxAudioSeconds ?? MAX_DURATION_SECONDS,
    audioFormat: AUDIO_FORMATS[options.audioFormat ?? defaults.audioFormat],
    webhookTimeoutMs: options.webhook?.timeoutMs ?? 10_000,
    retryDelaysMs: options.webhook?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    timestampClock: options.webhook?.timestampClock ?? defaultTimestampClock(options.clock),
    hangMs: options.hangMs ?? 300_000,
    quotaRetryAfterSeconds: retryAfterSeconds(options.quotaRetryAfterSeconds),
  };
}

/**
 * A receiver checks X-Sign-Timestamp against its own wall clock (spec 4.9's window), as the live
 * platform signs with its wall time. A `real` clock may run ahead of the wall (a scale above 1,
 * an `advance`, a restart after a scaled run), so it signs with the wall clock. A clock that a
 * test drives signs with its own time, which the test can give its receiver.
 */
function defaultTimestampClock(clock: PlatformEmulatorOptions["clock"]): "emulator" | "wall" {
  const mode =
    clock === undefined || typeof clock === "string"
      ? (clock ?? "real")
      : isEmulatorClock(clock)
        ? clock.mode
        : "source";
  return mode === "real" ? "wall" : "emulator";
}

/** `Retry-After` is delta-seconds: a non-negative integer (RFC 9110 10.2.3). */
function retryAfterSeconds(value: number | undefined): number | undefined {
  if (value === undefined || (Number.isInteger(value) && value >= 0)) return value;
  throw new TypeError(
    `quotaRetryAfterSeconds must be a non-negative integer, got ${JSON.stringify(value)}`,
  );
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
