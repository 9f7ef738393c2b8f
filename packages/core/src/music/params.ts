/**
 * The music model of the platform playground (spec 4.6 `model`).
 *
 * @example
 * ```ts
 * encodeForm({ model: MUSIC_MODEL, task: MUSIC_TASK, prompt });
 * ```
 */
export const MUSIC_MODEL = "ACE-Step-v1-3.5B";
/**
 * The text-to-music task type of the spec's sample usage (spec 4.6 `task`).
 *
 * @example
 * ```ts
 * MUSIC_DEFAULTS.task === MUSIC_TASK; // true
 * ```
 */
export const MUSIC_TASK = "text2music";
/**
 * Scheduler kinds of the playground (spec 4.6 `scheduler_type`; values not shown in the spec).
 *
 * @example
 * ```ts
 * SCHEDULER_TYPES.map((value) => ({ value, label: value })); // select options
 * ```
 */
export const SCHEDULER_TYPES = ["euler", "heun"] as const;
/**
 * Classifier-free guidance kinds of the playground (spec 4.6 `cfg_type`).
 *
 * @example
 * ```ts
 * CFG_TYPES.includes("cfg_star"); // true
 * ```
 */
export const CFG_TYPES = ["apg", "cfg", "cfg_star"] as const;
/**
 * LoRA adapters of the playground; `none` disables it (spec 4.6 `lora_name`).
 *
 * @example
 * ```ts
 * LORA_NAMES[0]; // "none"
 * ```
 */
export const LORA_NAMES = ["none", "ACE-Step-v1-chinese-rap-LoRA"] as const;
/**
 * Longest prompt the platform accepts, in characters: Unicode code points, as Python's `len`
 * counts them (docs/platform-facts.md: the playground's limit), after line breaks became LF. See
 * `countCharacters` of `@overture/core/text`.
 *
 * @example
 * ```ts
 * const tooLong = countCharacters(prompt) > MUSIC_PROMPT_MAX_LENGTH;
 * ```
 */
export const MUSIC_PROMPT_MAX_LENGTH = 4_000;
/**
 * Longest lyrics the platform accepts, in characters (code points, as for
 * {@link MUSIC_PROMPT_MAX_LENGTH}).
 *
 * @example
 * ```ts
 * const left = MUSIC_LYRICS_MAX_LENGTH - countCharacters(lyrics);
 * ```
 */
export const MUSIC_LYRICS_MAX_LENGTH = 16_000;
/**
 * Largest seed Overture sends: the largest whole number a JavaScript number holds exactly
 * (2^53 − 1); the platform shows no limit, but a larger one would not arrive as typed.
 *
 * @example
 * ```ts
 * MUSIC_SEED_MAX === Number.MAX_SAFE_INTEGER; // true
 * ```
 */
export const MUSIC_SEED_MAX = Number.MAX_SAFE_INTEGER;

/**
 * A scheduler kind (spec 4.6 `scheduler_type`).
 *
 * @example
 * ```ts
 * const scheduler: SchedulerType = "heun";
 * ```
 */
export type SchedulerType = (typeof SCHEDULER_TYPES)[number];
/**
 * A guidance kind (spec 4.6 `cfg_type`).
 *
 * @example
 * ```ts
 * const cfg: CfgType = "apg";
 * ```
 */
export type CfgType = (typeof CFG_TYPES)[number];
/**
 * A LoRA adapter name (spec 4.6 `lora_name`).
 *
 * @example
 * ```ts
 * const lora: LoraName = "ACE-Step-v1-chinese-rap-LoRA";
 * ```
 */
export type LoraName = (typeof LORA_NAMES)[number];

/**
 * A complete, validated set of music-generation form fields: the 19 of spec 4.6, in its order,
 * then the two the platform also accepts (docs/platform-facts.md): `seeds` and `reference_audio_strength`.
 *
 * @example
 * ```ts
 * const params: MusicParams = { ...MUSIC_DEFAULTS, prompt: "lofi", duration: 90 };
 * ```
 */
export interface MusicParams {
  model: typeof MUSIC_MODEL;
  task: typeof MUSIC_TASK;
  duration: number;
  prompt: string;
  lyrics: string;
  infer_steps: number;
  lora_name: LoraName;
  guidance_scale: number;
  guidance_scale_text: number;
  guidance_scale_lyric: number;
  scheduler_type: SchedulerType;
  cfg_type: CfgType;
  omega_scale: number;
  guidance_interval: number;
  guidance_interval_decay: number;
  min_guidance_scale: number;
  use_erg_tag: boolean;
  use_erg_lyric: boolean;
  use_erg_diffusion: boolean;
  /** Seeds for the generation; absent: the platform picks them. */
  seeds?: readonly number[];
  reference_audio_strength: number;
}

/**
 * The platform playground's defaults for every field but `seeds` (none: the platform picks
 * them). `prompt` has no default (it is required); `""` here is a form's starting value.
 * `lyrics: ""` means instrumental; `lora_name: "none"` is sent as `""`, the reference client's
 * `None`.
 *
 * @example
 * ```ts
 * const initial = { ...MUSIC_DEFAULTS, prompt: "lofi hip hop, mellow piano" };
 * ```
 */
export const MUSIC_DEFAULTS = {
  model: MUSIC_MODEL,
  task: MUSIC_TASK,
  duration: 60,
  prompt: "",
  lyrics: "",
  infer_steps: 60,
  lora_name: "none",
  guidance_scale: 15,
  guidance_scale_text: 0,
  guidance_scale_lyric: 0,
  scheduler_type: "euler",
  cfg_type: "apg",
  omega_scale: 10,
  guidance_interval: 0.5,
  guidance_interval_decay: 0,
  min_guidance_scale: 3,
  use_erg_tag: true,
  use_erg_lyric: true,
  use_erg_diffusion: true,
  reference_audio_strength: 0.3,
} as const satisfies MusicParams;

/**
 * How a field is entered and checked (spec 4.6 gives each field's type). `integer` is a number
 * that must be whole; `integer-list` is a list of them (`seeds`), entered as numbers separated by
 * commas or spaces.
 *
 * @example
 * ```ts
 * const control = MUSIC_FIELDS.infer_steps.kind === "integer" ? "stepper" : "slider";
 * ```
 */
export type MusicFieldKind = "number" | "integer" | "integer-list" | "text" | "option" | "boolean";

/**
 * Metadata of one music field (spec 4.6), enough to render and check a form control. `step` is
 * a UI hint only; it is not enforced (only `integer` fields must be whole). For `integer-list`,
 * `min` and `max` bound each item; `default` is the form's starting value (`""`: none).
 *
 * @example
 * ```ts
 * const { min, max, step, default: initial }: MusicFieldSpec = MUSIC_FIELDS.guidance_scale;
 * ```
 */
export interface MusicFieldSpec {
  readonly kind: MusicFieldKind;
  readonly default: string | number | boolean;
  readonly required: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly options?: readonly string[];
  readonly maxLength?: number;
}

const num = (min: number, max: number, step: number, value: number): MusicFieldSpec => ({
  kind: "number",
  default: value,
  required: false,
  min,
  max,
  step,
});
const option = (options: readonly string[], value: string): MusicFieldSpec => ({
  kind: "option",
  default: value,
  required: false,
  options,
});
const flag = (value: boolean): MusicFieldSpec => ({
  kind: "boolean",
  default: value,
  required: false,
});

/**
 * Per-field metadata of the music form, in the order fields are sent: spec 4.6's, then `seeds`
 * and `reference_audio_strength`. The spec shows neither requiredness nor ranges; these are the
 * platform playground's (docs/platform-facts.md): duration 30–240 s, infer_steps 1–60, guidance_scale,
 * guidance_scale_text, guidance_scale_lyric and min_guidance_scale 0–200, omega_scale −100–100,
 * guidance_interval, its decay and reference_audio_strength 0–1, prompt up to 4,000 and lyrics up
 * to 16,000 characters (code points).
 *
 * @example
 * ```ts
 * const { min, max, step } = MUSIC_FIELDS.duration; // 30, 240, 1
 * ```
 */
export const MUSIC_FIELDS: { readonly [K in keyof MusicParams]-?: MusicFieldSpec } = {
  model: option([MUSIC_MODEL], MUSIC_DEFAULTS.model),
  task: option([MUSIC_TASK], MUSIC_DEFAULTS.task),
  duration: num(30, 240, 1, MUSIC_DEFAULTS.duration),
  prompt: { kind: "text", default: "", required: true, maxLength: MUSIC_PROMPT_MAX_LENGTH },
  lyrics: { kind: "text", default: "", required: false, maxLength: MUSIC_LYRICS_MAX_LENGTH },
  infer_steps: { ...num(1, 60, 1, MUSIC_DEFAULTS.infer_steps), kind: "integer" },
  lora_name: option(LORA_NAMES, MUSIC_DEFAULTS.lora_name),
  guidance_scale: num(0, 200, 0.1, MUSIC_DEFAULTS.guidance_scale),
  guidance_scale_text: num(0, 200, 0.1, MUSIC_DEFAULTS.guidance_scale_text),
  guidance_scale_lyric: num(0, 200, 0.1, MUSIC_DEFAULTS.guidance_scale_lyric),
  scheduler_type: option(SCHEDULER_TYPES, MUSIC_DEFAULTS.scheduler_type),
  cfg_type: option(CFG_TYPES, MUSIC_DEFAULTS.cfg_type),
  omega_scale: num(-100, 100, 0.1, MUSIC_DEFAULTS.omega_scale),
  guidance_interval: num(0, 1, 0.01, MUSIC_DEFAULTS.guidance_interval),
  guidance_interval_decay: num(0, 1, 0.01, MUSIC_DEFAULTS.guidance_interval_decay),
  min_guidance_scale: num(0, 200, 0.1, MUSIC_DEFAULTS.min_guidance_scale),
  use_erg_tag: flag(MUSIC_DEFAULTS.use_erg_tag),
  use_erg_lyric: flag(MUSIC_DEFAULTS.use_erg_lyric),
  use_erg_diffusion: flag(MUSIC_DEFAULTS.use_erg_diffusion),
  seeds: { kind: "integer-list", default: "", required: false, min: 0, max: MUSIC_SEED_MAX },
  reference_audio_strength: num(0, 1, 0.01, MUSIC_DEFAULTS.reference_audio_strength),
};
