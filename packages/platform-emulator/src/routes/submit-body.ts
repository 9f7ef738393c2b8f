import type { Context } from "hono";

export type BodyFields =
  | { ok: true; fields: Iterable<[string, unknown]> }
  | { ok: false; message: string; field?: string };

/**
 * The fields of a submit body. Multipart is the spec's encoding (4.6); urlencoded is accepted as
 * a real form server would; a JSON object only when `json` is on (the live platform takes JSON
 * on the music endpoint in practice). JSON values are turned into the reference client's form
 * strings (null → "", booleans → true/false, lists comma-joined), so one parser types them all.
 */
export async function readSubmitBody(c: Context, json: boolean): Promise<BodyFields> {
  const type = c.req.header("Content-Type") ?? "";
  if (json && /^application\/json\b/i.test(type)) return jsonFields(c);
  const expected = json ? "multipart/form-data or JSON" : "a multipart/form-data";
  const refused = { ok: false as const, message: `expected ${expected} body` };
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) return refused;
  try {
    return { ok: true, fields: (await c.req.raw.formData()).entries() };
  } catch {
    return refused;
  }
}

async function jsonFields(c: Context): Promise<BodyFields> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return { ok: false, message: "the body is not valid JSON" };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, message: "the JSON body must be an object of fields" };
  const fields: [string, string][] = [];
  for (const [name, value] of Object.entries(body)) {
    const text = formText(value);
    if (text === undefined)
      return {
        ok: false,
        field: name,
        message: `${name} must be a string, number, boolean or list`,
      };
    fields.push([name, text]);
  }
  return { ok: true, fields };
}

function formText(value: unknown): string | undefined {
  if (value === null) return "";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "number" || typeof v === "string"))
    return value.join(",");
  return undefined;
}
