/**
 * Music-generation parameters (spec 4.6): the playground's defaults and ranges, a validator with
 * field-level errors for forms, the form fields the platform receives, and a lyrics section helper. Zod-free and dependency-free: the
 * extension popup bundles it.
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
