import { MAX_DURATION_SECONDS } from "../options.ts";
import type { ParamValue } from "../state/types.ts";

type Kind = "string" | "number" | "integer" | "boolean";

/** The music fields of spec 4.6 and their types. Anything else is ignored, like a real server. */
export const MUSIC_FIELD_KINDS: Record<string, Kind> = {
  model: "string",
  task: "string",
  duration: "number",
  prompt: "string",
  lyrics: "string",
  infer_steps: "integer",
  lora_name: "string",
  guidance_scale: "number",
  guidance_scale_text: "number",
  guidance_scale_lyric: "number",
  scheduler_type: "string",
  cfg_type: "string",
  omega_scale: "number",
  guidance_interval: "number",
  guidance_interval_decay: "number",
  min_guidance_scale: "number",
  use_erg_tag: "boolean",
  use_erg_lyric: "boolean",
  use_erg_diffusion: "boolean",
};

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export type ParseResult =
  | { ok: true; parameters: Record<string, ParamValue> }
  | { ok: false; field: string; message: string; missing?: true };

/**
 * Type-checks submitted fields (spec 4.6, 7: wrong format → 400 naming the field). Emulator
 * choices where the spec is silent: `prompt` is required; an empty value of a non-string field
 * is `null` (the reference client sends null as ""); booleans are exactly `true`/`false`;
 * `duration` must be in (0, 600]; `infer_steps` ≥ 1; a repeated field keeps its last value;
 * option values (scheduler_type, cfg_type, lora_name, task) are not restricted.
 */
export function parseMusicParams(fields: Iterable<[string, unknown]>): ParseResult {
  const parameters: Record<string, ParamValue> = {};
  for (const [name, value] of fields) {
    const kind = MUSIC_FIELD_KINDS[name];
    if (!kind) continue;
    if (typeof value !== "string")
      return { ok: false, field: name, message: `${name} must be a text field, not a file` };
    const parsed = parseValue(name, kind, value);
    if (typeof parsed === "object" && parsed !== null) return parsed;
    parameters[name] = parsed;
  }
  if (typeof parameters.prompt !== "string" || parameters.prompt.trim() === "")
    return { ok: false, field: "prompt", message: "prompt is required", missing: true };
  const duration = parameters.duration;
  if (typeof duration === "number" && (duration <= 0 || duration > MAX_DURATION_SECONDS))
    return {
      ok: false,
      field: "duration",
      message: `duration must be more than 0 and at most ${MAX_DURATION_SECONDS} seconds`,
    };
  const steps = parameters.infer_steps;
  if (typeof steps === "number" && steps < 1)
    return { ok: false, field: "infer_steps", message: "infer_steps must be at least 1" };
  return { ok: true, parameters };
}

function parseValue(
  name: string,
  kind: Kind,
  value: string,
): ParamValue | { ok: false; field: string; message: string } {
  if (kind === "string") return value;
  const text = value.trim();
  if (text === "") return null;
  const fail = (what: string) => ({
    ok: false as const,
    field: name,
    message: `${name} must be ${what}, got ${JSON.stringify(value.slice(0, 40))}`,
  });
  if (kind === "boolean") {
    if (text === "true") return true;
    if (text === "false") return false;
    return fail("true or false");
  }
  if (!NUMBER.test(text)) return fail(kind === "integer" ? "an integer" : "a number");
  const n = Number(text);
  if (!Number.isFinite(n)) return fail("a finite number");
  if (kind === "integer" && !Number.isInteger(n)) return fail("an integer");
  return n;
}
