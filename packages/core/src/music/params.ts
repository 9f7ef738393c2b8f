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
 * Longest prompt Overture sends, in characters (code points). Overture's choice: spec 4.6 shows
 * no limit.
 *
 * @example
 * ```ts
 * textarea.maxLength = MUSIC_PROMPT_MAX_LENGTH;
 * ```
 */
export const MUSIC_PROMPT_MAX_LENGTH = 1_000;
/**
 * Longest lyrics Overture sends, in characters (code points). Overture's choice: spec 4.6 shows
 * no limit.
 *
 * @example
 * ```ts
 * const tooLong = [...lyrics].length > MUSIC_LYRICS_MAX_LENGTH;
 * ```
 */
export const MUSIC_LYRICS_MAX_LENGTH = 10_000;

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
 * A complete, validated set of music-generation form fields (spec 4.6), in the spec's order.
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
}

/**
 * The platform playground's defaults for every field of spec 4.6. `prompt` has no default (it is
 * required); `""` here is a form's starting value. `lyrics: ""` means instrumental.
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
} as const satisfies MusicParams;

/**
 * How a field is entered and checked (spec 4.6 gives each field's type). `integer` is a number
 * that must be whole.
 *
 * @example
 * ```ts
 * const control = MUSIC_FIELDS.infer_steps.kind === "integer" ? "stepper" : "slider";
 * ```
 */
export type MusicFieldKind = "number" | "integer" | "text" | "option" | "boolean";

/**
 * Metadata of one music field (spec 4.6), enough to render and check a form control. `step` is
 * a UI hint only; it is not enforced (only `integer` fields must be whole).
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
 * Per-field metadata of the music form (spec 4.6), in the spec's order. The spec shows neither
 * requiredness nor ranges; Overture uses the platform playground's (duration 30–240 s,
 * infer_steps 1–60) and, where the playground gives none, ACE-Step's own UI ranges
 * (guidance_scale and min_guidance_scale 0–200, guidance_scale_text and guidance_scale_lyric
 * 0–10, omega_scale −100–100, guidance_interval and its decay 0–1). Prompt and lyrics lengths are
 * Overture's choice.
 *
 * @example
 * ```ts
 * const { min, max, step } = MUSIC_FIELDS.duration; // 30, 240, 1
 * ```
 */
export const MUSIC_FIELDS: { readonly [K in keyof MusicParams]: MusicFieldSpec } = {
  model: option([MUSIC_MODEL], MUSIC_DEFAULTS.model),
  task: option([MUSIC_TASK], MUSIC_DEFAULTS.task),
  duration: num(30, 240, 1, MUSIC_DEFAULTS.duration),
  prompt: { kind: "text", default: "", required: true, maxLength: MUSIC_PROMPT_MAX_LENGTH },
  lyrics: { kind: "text", default: "", required: false, maxLength: MUSIC_LYRICS_MAX_LENGTH },
  infer_steps: { ...num(1, 60, 1, MUSIC_DEFAULTS.infer_steps), kind: "integer" },
  lora_name: option(LORA_NAMES, MUSIC_DEFAULTS.lora_name),
  guidance_scale: num(0, 200, 0.1, MUSIC_DEFAULTS.guidance_scale),
  guidance_scale_text: num(0, 10, 0.1, MUSIC_DEFAULTS.guidance_scale_text),
  guidance_scale_lyric: num(0, 10, 0.1, MUSIC_DEFAULTS.guidance_scale_lyric),
  scheduler_type: option(SCHEDULER_TYPES, MUSIC_DEFAULTS.scheduler_type),
  cfg_type: option(CFG_TYPES, MUSIC_DEFAULTS.cfg_type),
  omega_scale: num(-100, 100, 0.1, MUSIC_DEFAULTS.omega_scale),
  guidance_interval: num(0, 1, 0.01, MUSIC_DEFAULTS.guidance_interval),
  guidance_interval_decay: num(0, 1, 0.01, MUSIC_DEFAULTS.guidance_interval_decay),
  min_guidance_scale: num(0, 200, 0.1, MUSIC_DEFAULTS.min_guidance_scale),
  use_erg_tag: flag(MUSIC_DEFAULTS.use_erg_tag),
  use_erg_lyric: flag(MUSIC_DEFAULTS.use_erg_lyric),
  use_erg_diffusion: flag(MUSIC_DEFAULTS.use_erg_diffusion),
};
