import { countCharacters, findUnstorableText, normalizeLineBreaks } from "../text/index.ts";
import { MUSIC_FIELDS, type MusicFieldSpec, type MusicParams } from "./params.ts";

/**
 * Why a music field (spec 4.6) was refused. Stable: a form maps it to a localised message.
 *
 * @example
 * ```ts
 * const text: Record<MusicFieldErrorCode, string> = { required: "Required", type: "Invalid",
 *   range: "Out of range", option: "Not an option", length: "Too long",
 *   unstorable_text: "Remove the invisible character", unknown_field: "Unknown" };
 * ```
 */
export type MusicFieldErrorCode =
  "required" | "type" | "range" | "option" | "length" | "unstorable_text" | "unknown_field";

/**
 * One refused music field (spec 4.6): `field` is the form field name (`""` when the input is not
 * an object), `message` is English; `min`/`max` come with `range` and `length` (`max` only),
 * `options` with `option`, so a form can build its own localised text.
 *
 * @example
 * ```ts
 * // { field: "duration", code: "range", message: "duration must be between 30 and 240.", min: 30, max: 240 }
 * for (const error of result.errors) form.setError(error.field, error.message);
 * ```
 */
export interface MusicFieldError {
  field: string;
  code: MusicFieldErrorCode;
  message: string;
  min?: number;
  max?: number;
  options?: readonly string[];
}

/**
 * Outcome of {@link validateMusicParams} (spec 4.6).
 *
 * @example
 * ```ts
 * const result: MusicValidation = validateMusicParams(formValues);
 * ```
 */
export type MusicValidation =
  { ok: true; value: MusicParams } | { ok: false; errors: MusicFieldError[] };

/** A checked field: its value (`undefined`: leave the field out) or why it was refused. */
type Check = { value: unknown } | { error: Omit<MusicFieldError, "field"> };

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `undefined`, `null` and a blank string (a cleared form control) take the default; so does
 * `[]` for a list field, and only there: a list given for any other field is a type error. */
function isMissing(value: unknown, spec: MusicFieldSpec): boolean {
  if (Array.isArray(value)) return spec.kind === "integer-list" && value.length === 0;
  return value == null || (typeof value === "string" && value.trim() === "");
}

function checkNumber(name: string, spec: MusicFieldSpec, raw: unknown): Check {
  let value = raw;
  if (typeof raw === "string" && DECIMAL.test(raw.trim())) value = Number(raw.trim());
  if (typeof value !== "number" || !Number.isFinite(value))
    return { error: { code: "type", message: `${name} must be a number.` } };
  if (spec.kind === "integer" && !Number.isInteger(value))
    return { error: { code: "type", message: `${name} must be a whole number.` } };
  const min = spec.min ?? -Infinity;
  const max = spec.max ?? Infinity;
  if (value < min || value > max)
    return {
      error: { code: "range", message: `${name} must be between ${min} and ${max}.`, min, max },
    };
  return { value };
}

function checkText(name: string, spec: MusicFieldSpec, raw: unknown): Check {
  if (typeof raw !== "string") return { error: { code: "type", message: `${name} must be text.` } };
  // The platform receives LF line breaks whatever system the text was typed on, and a CRLF
  // counts as one character. The prompt is a description: outer whitespace carries nothing.
  // Lyrics keep their layout.
  const normalized = normalizeLineBreaks(raw);
  const value = spec.required ? normalized.trim() : normalized;
  const unstorable = findUnstorableText(value);
  if (unstorable)
    return { error: { code: "unstorable_text", message: `${name} ${unstorable.message}.` } };
  const max = spec.maxLength ?? Infinity;
  if (countCharacters(value) > max)
    return {
      error: { code: "length", message: `${name} must be at most ${max} characters.`, max },
    };
  return { value };
}

const WHOLE = /^\d+$/;

/** A list of whole numbers: an array (of numbers or digit strings) or text a form posts. */
function checkIntegerList(name: string, spec: MusicFieldSpec, raw: unknown): Check {
  const items: unknown[] | undefined =
    typeof raw === "string"
      ? raw.split(/[\s,]+/).filter(Boolean)
      : Array.isArray(raw)
        ? raw
        : undefined;
  const type = {
    error: { code: "type", message: `${name} must be whole numbers separated by commas.` },
  } as const;
  if (items === undefined) return type;
  const min = spec.min ?? 0;
  const max = spec.max ?? Number.MAX_SAFE_INTEGER;
  const value: number[] = [];
  for (const item of items) {
    const n = typeof item === "string" && WHOLE.test(item.trim()) ? Number(item.trim()) : item;
    if (typeof n !== "number" || !Number.isInteger(n)) return type;
    if (n < min || n > max)
      return {
        error: {
          code: "range",
          message: `each of ${name} must be between ${min} and ${max}.`,
          min,
          max,
        },
      };
    value.push(n);
  }
  return { value };
}

function checkOption(name: string, spec: MusicFieldSpec, raw: unknown): Check {
  const options = spec.options ?? [];
  if (typeof raw === "string" && options.includes(raw)) return { value: raw };
  return {
    error: { code: "option", message: `${name} must be one of: ${options.join(", ")}.`, options },
  };
}

function checkBoolean(name: string, raw: unknown): Check {
  if (typeof raw === "boolean") return { value: raw };
  if (raw === "true" || raw === "false") return { value: raw === "true" };
  return { error: { code: "type", message: `${name} must be true or false.` } };
}

function checkField(name: string, spec: MusicFieldSpec, raw: unknown): Check {
  if (isMissing(raw, spec)) {
    if (spec.required) return { error: { code: "required", message: `${name} is required.` } };
    // A list has no default to send: the field is left out and the platform chooses.
    return { value: spec.kind === "integer-list" ? undefined : spec.default };
  }
  switch (spec.kind) {
    case "number":
    case "integer":
      return checkNumber(name, spec, raw);
    case "integer-list":
      return checkIntegerList(name, spec, raw);
    case "text":
      return checkText(name, spec, raw);
    case "option":
      return checkOption(name, spec, raw);
    case "boolean":
      return checkBoolean(name, raw);
  }
}

/**
 * Checks music-generation parameters (spec 4.6 and the platform's ranges, docs/platform-facts.md) and
 * fills in defaults, for a form or a backend. `submitMusicTask` runs it too, so what it accepts
 * is what is sent.
 *
 * - Missing fields, `null` and blank strings take {@link MUSIC_DEFAULTS}; `prompt` is required
 *   and must be non-empty after trimming (the value carries the trimmed prompt). No `seeds`
 *   (missing, blank or `[]`) leaves the field out.
 * - Numbers may be given as numeric strings (`"60"`, `"0.5"`): an HTML form posts strings.
 *   Booleans accept `"true"` / `"false"`. Hex, `"NaN"` and other text are a `type` error.
 *   `seeds` takes an array of whole numbers or a text of them separated by commas or spaces.
 * - Text: line breaks become LF (CRLF and a lone CR alike) before anything else; a NUL or a lone
 *   UTF-16 surrogate, which Postgres cannot store, is an `unstorable_text` error; lengths count
 *   characters as code points, like Python's `len` (an emoji is one).
 * - Ranges, options and lengths follow {@link MUSIC_FIELDS}.
 * - A field this module does not know is an `unknown_field` error, so a typo (`durtion`) is never
 *   silently dropped.
 *
 * All errors are reported at once, at most one per field. Zod-free: the extension bundles it.
 *
 * @example
 * ```ts
 * const result = validateMusicParams({ prompt: "lofi", duration: "90", use_erg_tag: "false" });
 * if (result.ok) submit(result.value); // duration 90, use_erg_tag false, defaults elsewhere
 * else showErrors(result.errors);      // [{ field, code, message, min?, max?, options? }]
 * ```
 */
export function validateMusicParams(input: unknown): MusicValidation {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return {
      ok: false,
      errors: [{ field: "", code: "type", message: "Music parameters must be an object." }],
    };
  const given = input as Record<string, unknown>;
  const errors: MusicFieldError[] = [];
  const value: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(MUSIC_FIELDS)) {
    const check = checkField(name, spec, Object.hasOwn(given, name) ? given[name] : undefined);
    if ("error" in check) errors.push({ field: name, ...check.error });
    else if (check.value !== undefined) value[name] = check.value;
  }
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(MUSIC_FIELDS, name))
      errors.push({ field: name, code: "unknown_field", message: `Unknown field "${name}".` });
  }
  // Every field of MUSIC_FIELDS was checked against its spec above, so the shape holds.
  return errors.length > 0
    ? { ok: false, errors }
    : { ok: true, value: value as unknown as MusicParams };
}
