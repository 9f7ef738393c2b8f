import type { ResolvedOptions } from "../options.ts";
import { pick } from "../profile.ts";
import type { TaskRecord } from "../state/types.ts";

/** What the readable profile says when a task fails (emulated failure). */
const READABLE_ERROR = {
  code: "generation_failed",
  message: "The model failed to generate audio (emulated failure).",
};
/** The live failure seen in real traffic (docs/platform-facts.md: `output.error`). */
const LIVE_ERROR = { code: 500, message: "Service Temporarily Unavailable" };

/** `usage_info` before the task ends: `{}` (readable) or `null` (live shapes). */
export function pendingUsage(options: ResolvedOptions): Record<string, unknown> | null {
  return options.shape.usageInfo === "object" ? {} : null;
}

/** Sets `output`, `usage_info` and (live) `message` of a task that failed. */
export function applyFailure(options: ResolvedOptions, task: TaskRecord): void {
  const { shape } = options;
  const live = options.profile === "live";
  const error = live ? LIVE_ERROR : READABLE_ERROR;
  const form = pick(shape.failureError, task.sequence, ["object", "string"] as const);
  task.output = { error: form === "object" ? { ...error } : error.message };
  if (shape.failureMessage) task.message = error.message;
  task.usageInfo = pendingUsage(options);
}

/** Sets `output` and `usage_info` of a task that produced a file at `link`. */
export function applySuccess(
  options: ResolvedOptions,
  task: TaskRecord,
  link: string,
  audio: { requested: number; seconds: number },
): void {
  const { shape } = options;
  const field = pick(shape.outputUrlField, task.sequence, ["file_url", "url"] as const);
  task.output = { [field]: link, duration: audio.seconds };
  // A cap is said where the result is read, never applied silently.
  if (audio.seconds < audio.requested)
    Object.assign(task.output, {
      requested_duration: audio.requested,
      notice: `audio capped at ${audio.seconds} s by the emulator (maxAudioSeconds); ${audio.requested} s were requested`,
    });
  const usage = pick(shape.usageInfo, task.sequence, ["object", "null"] as const);
  task.usageInfo =
    usage === "null"
      ? null
      : {
          unit: options.profile === "live" ? "seconds" : "second",
          quantity: audio.requested,
          prompt_tokens:
            countWords(String(task.parameters.prompt ?? "")) +
            countWords(String(task.parameters.lyrics ?? "")),
          completion_tokens: 0,
          resolution: null,
        };
}

/** The track length a task asked for: its `duration`, or the emulator's default. */
export function requestedSeconds(options: ResolvedOptions, task: TaskRecord): number {
  return typeof task.parameters.duration === "number"
    ? task.parameters.duration
    : options.defaultDurationSeconds;
}

/** Live profile: 0.01 CNY per requested second (an emulator figure; the real tariff differs). */
export function priceOf(seconds: number): number {
  return Math.round(seconds) / 100;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
