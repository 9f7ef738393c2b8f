/**
 * Response profiles. `readable` (the default) answers in shapes that are easy to read in tests
 * and logs. `live` answers as the live platform is known to (docs/platform-facts.md; see the
 * README): every way the two differ is one field of {@link ResponseShape}, so a test can pin any
 * single one with the `shape` option.
 */
export type ProfileName = "readable" | "live";

/**
 * Where a variant "alternates", the emulator's 1st, 3rd, 5th … task of a run gets the first
 * variant named and the 2nd, 4th … the second, so a test that submits two tasks sees both.
 */
export type Alternating<A extends string, B extends string> = A | B | "alternate";

/**
 * Every way the `readable` and `live` profiles answer differently, one field each. A profile is
 * a full `ResponseShape` ({@link PROFILES}); the `shape` option pins single fields over it, so a
 * test can check one live quirk (say `output.url`) while the rest stays readable.
 *
 * @example
 * ```ts
 * createPlatformEmulator({ shape: { outputUrlField: "url", usageInfo: "null" } });
 * ```
 */
export interface ResponseShape {
  /** Task ids: `task_<base64url>`, or 32 uppercase letters and digits (live). */
  taskIds: "readable" | "live";
  /** Event ids: `evt_<base64url>`, or 32 lowercase hex digits (live). */
  eventIds: "readable" | "live";
  /** Field of a success's result link: `output.file_url` or `output.url`. */
  outputUrlField: Alternating<"file_url", "url">;
  /** `usage_info` of a finished task: an object, or `null`. Live also sends `null` before then. */
  usageInfo: Alternating<"object", "null">;
  /** `output.error` of a failed task: `{ code, message }`, or a plain string. */
  failureError: Alternating<"object", "string">;
  /** A failed task also carries a top-level `message`. */
  failureMessage: boolean;
  /** Task records carry `price` (number) and `currency` (`"CNY"`). */
  pricing: boolean;
  /** The submit endpoint also takes a JSON object body (multipart and urlencoded always work). */
  jsonSubmit: boolean;
  /** 400 answers of the task endpoints: `{ error, message, field }` or live `{ error_message }`. */
  parameterErrors: "readable" | "live";
  /**
   * Result links look like signed object-storage URLs (`X-Amz-Expires=604800` …), refuse a
   * missing or altered signature with 403, and answer 403 "Request has expired" after expiry
   * (readable: plain path, 410 Gone).
   */
  signedFileUrls: boolean;
}

/** The shape of each profile. */
export const PROFILES: Record<ProfileName, Readonly<ResponseShape>> = {
  readable: {
    taskIds: "readable",
    eventIds: "readable",
    outputUrlField: "file_url",
    usageInfo: "object",
    failureError: "object",
    failureMessage: false,
    pricing: false,
    jsonSubmit: false,
    parameterErrors: "readable",
    signedFileUrls: false,
  },
  live: {
    taskIds: "live",
    eventIds: "live",
    outputUrlField: "alternate",
    usageInfo: "alternate",
    failureError: "alternate",
    failureMessage: true,
    pricing: true,
    jsonSubmit: true,
    parameterErrors: "live",
    signedFileUrls: true,
  },
};

/** Defaults other than response shapes that differ per profile. */
export const PROFILE_DEFAULTS: Record<
  ProfileName,
  { fileTtlMs: number; defaultDurationSeconds: number; audioFormat: "compact" | "studio" }
> = {
  // Spec 8: "usually 24 hours"; the emulator's own default duration; small files.
  readable: { fileTtlMs: 24 * 3_600_000, defaultDurationSeconds: 30, audioFormat: "compact" },
  // Live links are signed for 604 800 s (7 days); the playground's default duration is 60 s;
  // ACE-Step writes 48 kHz stereo WAV.
  live: { fileTtlMs: 7 * 24 * 3_600_000, defaultDurationSeconds: 60, audioFormat: "studio" },
};

/** Picks a variant for the task with this sequence number (1-based). */
export function pick<A extends string, B extends string>(
  choice: Alternating<A, B>,
  sequence: number,
  [first, second]: readonly [A, B],
): A | B {
  if (choice !== "alternate") return choice;
  return sequence % 2 === 1 ? first : second;
}
