import type { MusicParams } from "./params.ts";
import { validateMusicParams, type MusicFieldError } from "./validate.ts";

/**
 * Music parameters that {@link validateMusicParams} refused, thrown by `submitMusicTask` before
 * anything is sent; `errors` lists every refused field.
 *
 * @example
 * ```ts
 * try { await client.submitMusicTask(token, input); }
 * catch (error) { if (error instanceof MusicParamsError) showErrors(error.errors); }
 * ```
 */
export class MusicParamsError extends TypeError {
  override readonly name = "MusicParamsError";
  /** Stable: `INVALID_MUSIC_PARAMS`. */
  readonly code = "INVALID_MUSIC_PARAMS";
  readonly errors: readonly MusicFieldError[];

  constructor(errors: readonly MusicFieldError[]) {
    super(`Invalid music parameters: ${errors.map((e) => e.message).join(" ")}`);
    this.errors = errors;
  }
}

/**
 * The form fields the platform receives for validated parameters, ready for `encodeForm`
 * (spec 4.6 form rules): `lora_name` `"none"` becomes `null`, sent as `""` as the reference
 * client sends Python's `None`; `seeds` stay a list, sent comma-joined; every other value as is.
 *
 * @example
 * ```ts
 * encodeForm(musicFormFields(result.value)); // lora_name="", seeds="1,2"
 * ```
 */
export function musicFormFields(params: MusicParams): Record<string, unknown> {
  return { ...params, lora_name: params.lora_name === "none" ? null : params.lora_name };
}

/**
 * Validates `input` with {@link validateMusicParams} and returns its form fields
 * ({@link musicFormFields}): the one path from what a user typed to what the platform gets.
 *
 * @throws MusicParamsError listing every refused field.
 *
 * @example
 * ```ts
 * const body = encodeForm(musicForm({ prompt: "lofi", seeds: "7" }));
 * ```
 */
export function musicForm(input: unknown): Record<string, unknown> {
  const result = validateMusicParams(input);
  if (!result.ok) throw new MusicParamsError(result.errors);
  return musicFormFields(result.value);
}
