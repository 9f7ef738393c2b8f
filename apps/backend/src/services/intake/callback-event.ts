import { callbackEventSchema, type CallbackEvent } from "@overture/core/schemas";

export type ReadEvent = { ok: true; event: CallbackEvent } | { ok: false; fields: string };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown) => typeof value === "string" && value.length > 0;
const absentOr = (value: unknown, type: "string" | "number") =>
  value === undefined || value === null || typeof value === type;

/**
 * Whether `json` already has the shape core's `callbackEventSchema` would return unchanged:
 * non-empty ids and status, `output` and `usage_info` absent, null or objects whose known fields
 * have their plain types (no numeric strings to convert, no error object to check). Unknown
 * fields are kept by the schema too, so such an event is its own parse result.
 */
function plainEvent(json: unknown): json is CallbackEvent {
  if (!isObject(json) || !isId(json.event_id) || !isId(json.task_id) || !isId(json.status))
    return false;
  const { output, usage_info: usage } = json;
  if (output !== undefined && output !== null) {
    if (!isObject(output)) return false;
    if (!absentOr(output.file_url, "string") || !absentOr(output.url, "string")) return false;
    if (!absentOr(output.error, "string")) return false;
  }
  if (usage !== undefined && usage !== null) {
    if (!isObject(usage) || !absentOr(usage.unit, "string")) return false;
    if (!absentOr(usage.quantity, "number") || !absentOr(usage.prompt_tokens, "number"))
      return false;
    if (!absentOr(usage.completion_tokens, "number")) return false;
  }
  return true;
}

/**
 * The callback event of a verified body (spec 2.7). The common event is checked by hand (zod's
 * parse was a good share of the intake's own handling of a delivery); anything else — a
 * numeric string to convert, an error object, a missing or mistyped field — goes through the
 * schema, which stays the one source of the rules and of the refusal's field list.
 */
export function readCallbackEvent(json: unknown): ReadEvent {
  if (plainEvent(json)) return { ok: true, event: json };
  const parsed = callbackEventSchema.safeParse(json);
  if (parsed.success) return { ok: true, event: parsed.data };
  return {
    ok: false,
    fields: parsed.error.issues.map((i) => i.path.join(".") || "body").join(", "),
  };
}
