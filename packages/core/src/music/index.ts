/**
 * Music-generation parameters (spec 4.6): the playground's defaults and ranges, a validator with
 * field-level errors for forms, the form fields the platform receives, and a lyrics section helper. Zod-free and dependency-free: the
 * extension popup bundles it.
 *
 * ## Choices where the spec is silent
 *
 * The platform playground's defaults and ranges: duration 30–240 s, infer_steps 1–60 and whole,
 * guidance_scale, guidance_scale_text, guidance_scale_lyric and min_guidance_scale 0–200,
 * omega_scale −100–100, guidance_interval, its decay and reference_audio_strength 0–1, prompt up
 * to 4 000 and lyrics up to 16 000 characters. A character is a Unicode code point, as Python's
 * `len` counts it, counted after line breaks became LF. Numbers may be numeric strings and
 * booleans `"true"`/`"false"` (a form posts strings); `null`, missing and blank take the default;
 * the prompt is required and trimmed; lyrics keep their layout; a NUL or a lone surrogate in any
 * text is refused (`unstorable_text`: Postgres cannot store it); `seeds` are whole numbers from 0
 * to 2^53 − 1, given as a list or as text separated by commas or spaces; `lora_name` none is sent
 * as `""`; an unknown field is an error, so a typo is never silently dropped.
 *
 * @packageDocumentation
 */
export {
  MUSIC_MODEL,
  MUSIC_TASK,
  SCHEDULER_TYPES,
  CFG_TYPES,
  LORA_NAMES,
  MUSIC_PROMPT_MAX_LENGTH,
  MUSIC_LYRICS_MAX_LENGTH,
  MUSIC_SEED_MAX,
  MUSIC_DEFAULTS,
  MUSIC_FIELDS,
} from "./params.ts";
export type {
  MusicParams,
  MusicFieldKind,
  MusicFieldSpec,
  SchedulerType,
  CfgType,
  LoraName,
} from "./params.ts";
export { validateMusicParams } from "./validate.ts";
export type { MusicFieldError, MusicFieldErrorCode, MusicValidation } from "./validate.ts";
export { MusicParamsError, musicForm, musicFormFields } from "./form.ts";
export { lyricSections } from "./lyrics.ts";
