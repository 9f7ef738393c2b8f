import { MUSIC_FIELDS, type MusicFieldError, type MusicParams } from "@overture/core/music";
import type { DraftValue } from "../shared/storage.ts";

export type FieldName = keyof MusicParams;
export type FormValues = Record<FieldName, DraftValue>;

/** Fields shown up front; every other field of spec 4.6 is in "Advanced", in the spec's order. */
export const BASIC_FIELDS = [
  "prompt",
  "lyrics",
  "duration",
] as const satisfies readonly FieldName[];
export const ADVANCED_FIELDS = (Object.keys(MUSIC_FIELDS) as FieldName[]).filter(
  (name) => !(BASIC_FIELDS as readonly string[]).includes(name),
);

/** Every field in the order the form shows it: the first invalid one is the one to focus. */
export const FORM_ORDER: readonly FieldName[] = [...BASIC_FIELDS, ...ADVANCED_FIELDS];

/**
 * The form's starting values: each field's form default, then the remembered draft on top. The
 * form defaults, not MUSIC_DEFAULTS: `seeds` has none there (the platform picks them), and a
 * missing value would show as the text "undefined" in its box.
 */
export function initialValues(draft: Record<string, DraftValue>): FormValues {
  const values: Record<string, DraftValue> = {};
  for (const [name, spec] of Object.entries(MUSIC_FIELDS))
    values[name] = draft[name] ?? spec.default;
  return values as FormValues;
}

/** Line breaks as LF: a paste from Windows carries CRLF, old Mac text CR. */
export const toLf = (text: string): string => text.replace(/\r\n?/g, "\n");

/** The number an empty box of `name` stands for (core fills it in); null for a field without. */
export function numberDefault(name: FieldName): number | null {
  const spec = MUSIC_FIELDS[name];
  return (spec.kind === "number" || spec.kind === "integer") && typeof spec.default === "number"
    ? spec.default
    : null;
}

/** Whether a control was left empty (cleared, or only spaces). */
export const isBlank = (value: DraftValue): boolean => String(value).trim() === "";

/**
 * The values a form holds, as the payload core validates and the backend receives. An empty
 * number box sends its default, the one its placeholder and hint show: the request says what
 * the form said, rather than leaving the backend to fill in a number.
 */
export function toPayload(values: FormValues): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...values };
  for (const [name, value] of Object.entries(values)) {
    const fallback = numberDefault(name as FieldName);
    if (MUSIC_FIELDS[name as FieldName].kind === "text" && typeof value === "string")
      payload[name] = toLf(value);
    else if (fallback !== null && isBlank(value)) payload[name] = fallback;
  }
  return payload;
}

/**
 * The length of a text field as core's validator counts it: code points (an emoji is one) of
 * what is sent, LF line breaks, the prompt without its outer whitespace.
 */
export function sentLength(name: FieldName, value: DraftValue): number {
  const text = toLf(String(value));
  let count = 0;
  // Code points, as core counts: a person's "characters" closely enough, without Intl.Segmenter.
  for (const _ of MUSIC_FIELDS[name].required ? text.trim() : text) count++;
  return count;
}

/** The first problem per field, for inline messages. */
export function errorsByField(
  errors: readonly MusicFieldError[],
): Partial<Record<string, MusicFieldError>> {
  const byField: Partial<Record<string, MusicFieldError>> = {};
  for (const error of errors) byField[error.field] ??= error;
  return byField;
}

export interface Preset {
  id: "lofi" | "orchestral" | "chineseRap";
  values: Partial<Record<FieldName, DraftValue>>;
}

const RAP_LYRICS = `[verse]
霓虹灯下我把节拍点亮
旧街口的风吹散了迷惘
一笔一画写下心里的光
每个字都踩在鼓点上

[chorus]
跟我一起唱 把音量放大
这座城市为我们留盏灯吧
不怕路再长 梦不会停下
我们的故事 才刚刚出发`;

/**
 * A few starting points. Each sets the whole form (other fields return to their defaults), so a
 * preset always sounds the same whatever was set before.
 */
export const PRESETS: readonly Preset[] = [
  {
    id: "lofi",
    values: {
      prompt:
        "lo-fi hip hop, mellow Rhodes piano, vinyl crackle, soft boom-bap drums, warm bass, 80 BPM, relaxed",
      lyrics: "",
      duration: 90,
    },
  },
  {
    id: "orchestral",
    values: {
      prompt:
        "cinematic orchestral, soaring strings, french horns, timpani, choir, epic build, 100 BPM",
      lyrics: "",
      duration: 120,
      infer_steps: 60,
    },
  },
  {
    id: "chineseRap",
    values: {
      prompt: "Chinese rap, hip hop, punchy 808 bass, trap hi-hats, confident male vocal, 95 BPM",
      lyrics: RAP_LYRICS,
      duration: 60,
      lora_name: "ACE-Step-v1-chinese-rap-LoRA",
    },
  },
];

export function applyPreset(preset: Preset): FormValues {
  return { ...initialValues({}), ...preset.values };
}
