import { z } from "zod";
import { MUSIC_FIELDS, type MusicFieldSpec, type MusicParams } from "./params.ts";
import { validateMusicParams, type MusicFieldError } from "./validate.ts";

/** What each music field is (spec 4.6's words where it has some), for a schema's reader. */
const DESCRIPTIONS: { readonly [K in keyof MusicParams]-?: string } = {
  model: "Model name",
  task: "Task type: text to music",
  duration: "Length of the track, in seconds",
  prompt: "Style description, required",
  lyrics: "Lyrics text; empty for an instrumental",
  infer_steps:
    "Inference steps; more steps usually mean higher quality and longer time (a whole number)",
  lora_name: "LoRA adapter; `none` for none",
  guidance_scale: "Guidance strength",
  guidance_scale_text: "Guidance strength of the style description",
  guidance_scale_lyric: "Guidance strength of the lyrics",
  scheduler_type: "Scheduler kind",
  cfg_type: "Classifier-free guidance kind",
  omega_scale: "Omega scale",
  guidance_interval: "Guidance interval",
  guidance_interval_decay: "Decay of the guidance over its interval",
  min_guidance_scale: "Least guidance strength the decay reaches",
  use_erg_tag: "Entropy rectifying guidance of the style description",
  use_erg_lyric: "Entropy rectifying guidance of the lyrics",
  use_erg_diffusion: "Entropy rectifying guidance of the diffusion",
  seeds: "Seeds, whole numbers; absent: the platform picks them",
  reference_audio_strength: "Strength of the reference audio",
};

/** One field as {@link MUSIC_FIELDS} describes it: its type, range or options, and default. */
function fieldSchema(spec: MusicFieldSpec, description: string): z.ZodType {
  switch (spec.kind) {
    case "number":
    case "integer": {
      const number = spec.kind === "integer" ? z.int() : z.number();
      const { min = -Infinity, max = Infinity } = spec;
      return number
        .min(min)
        .max(max)
        .default(spec.default as number)
        .meta({ description });
    }
    case "integer-list": {
      const { min = 0, max = Number.MAX_SAFE_INTEGER } = spec;
      return z.array(z.int().min(min).max(max)).optional().meta({ description });
    }
    case "text": {
      // Lengths count code points (validate.ts), where zod's `max` would count UTF-16 units: the
      // limit is documented here and checked by validateMusicParams.
      const text = spec.required ? z.string().min(1) : z.string().default(spec.default as string);
      const limit = spec.maxLength === undefined ? {} : { maxLength: spec.maxLength };
      return text.meta({ description: `${description}; its length counts code points`, ...limit });
    }
    case "option":
      return z
        .enum(spec.options as [string, ...string[]])
        .default(spec.default as string)
        .meta({ description });
    case "boolean":
      return z
        .boolean()
        .default(spec.default as boolean)
        .meta({ description });
  }
}

const documented = z
  .strictObject(
    Object.fromEntries(
      Object.entries(MUSIC_FIELDS).map(([name, spec]) => [
        name,
        fieldSchema(spec, DESCRIPTIONS[name as keyof MusicParams]),
      ]),
    ),
  )
  .meta({
    description: "Music parameters (spec 4.6); missing fields take the playground's defaults",
  });

/**
 * Music parameters (spec 4.6) as a zod schema, derived from {@link MUSIC_FIELDS}: each field with
 * its type, range or options, default and a description, for a document of an API (OpenAPI)
 * that takes them. Parsing runs {@link validateMusicParams}, so it accepts and returns exactly
 * what that does (numeric strings, `"true"`, blank fields taking defaults, seeds as text) and
 * refuses with one issue per refused field, whose `params` carry the field error
 * ({@link musicFieldErrors}). Input that is not an object fails as any object schema does.
 *
 * @example
 * ```ts
 * const result = musicParamsSchema.safeParse({ prompt: "lofi", duration: "90" });
 * if (result.success) submit(result.data); // MusicParams: duration 90, defaults elsewhere
 * else showErrors(musicFieldErrors(result.error));
 * ```
 */
export const musicParamsSchema: z.ZodType<MusicParams> = z.preprocess((input, ctx) => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const result = validateMusicParams(input);
  if (result.ok) return result.value;
  for (const error of result.errors) {
    ctx.addIssue({
      code: "custom",
      path: [error.field],
      message: error.message,
      params: { musicFieldError: error },
    });
  }
  return input;
}, documented) as unknown as z.ZodType<MusicParams>;

/**
 * The refused fields of a failed {@link musicParamsSchema} parse, as {@link validateMusicParams}
 * reports them (`field`, `code`, `message`, `min`/`max`/`options`); empty when the input was
 * not an object.
 *
 * @example
 * ```ts
 * const result = musicParamsSchema.safeParse({ prompt: "x", duration: 1_000 });
 * if (!result.success) musicFieldErrors(result.error); // [{ field: "duration", code: "range", … }]
 * ```
 */
export function musicFieldErrors(error: z.ZodError): MusicFieldError[] {
  return error.issues.flatMap((issue) => {
    const params = (issue as { params?: { musicFieldError?: MusicFieldError } }).params;
    return params?.musicFieldError ? [params.musicFieldError] : [];
  });
}
