/**
 * Encodes one form value by the reference client's rules (spec 4.6):
 *
 * - `undefined` → `undefined`: the field is **omitted** (an optional field left out, as a JS
 *   object spread leaves it; the reference client has no `undefined`).
 * - `null` → `""` (empty string).
 * - array → its elements encoded by these same rules and joined with `,`; a `null` or
 *   `undefined` element keeps its place as an empty item (`[1, null, 2]` → `"1,,2"`, as
 *   `Array.prototype.join` does); nested arrays flatten (`[[1, 2], 3]` → `"1,2,3"`).
 * - boolean → `"true"` / `"false"`.
 * - number → `String(n)` (`0.5` → `"0.5"`, `-0` → `"0"`, `1e21` → `"1e+21"`). `NaN` and
 *   `±Infinity` throw a `TypeError`: they are always a bug upstream, and the platform would
 *   receive the text `"NaN"`.
 * - string, bigint and objects with their own string form (`URL`, `Date`) → `String(value)`.
 * - plain objects, functions, symbols and `Blob`s throw a `TypeError` instead of sending
 *   `"[object Object]"` (use {@link encodeForm} for a `Blob`).
 *
 * This module does not import zod (the extension popup bundles it).
 *
 * @example
 * ```ts
 * encodeFormValue(null);        // ""
 * encodeFormValue(["a", "b"]);  // "a,b"
 * encodeFormValue(true);        // "true"
 * encodeFormValue(60);          // "60"
 * encodeFormValue(undefined);   // undefined (field omitted)
 * ```
 */
export function encodeFormValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return encodeDefined(value);
}

function encodeDefined(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(encodeDefined).join(",");
  switch (typeof value) {
    case "string":
      return value;
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`Cannot form-encode the number ${value}`);
      return String(value);
    case "bigint":
      return value.toString();
    case "object":
      if (isPlainObject(value) || isBlob(value))
        throw new TypeError("Cannot form-encode an object without its own string form");
      // Not a plain object: its class defines the string form (URL, Date, String, ...).
      return (value as { toString(): string }).toString();
    default:
      throw new TypeError(`Cannot form-encode a ${typeof value}`);
  }
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isBlob(value: object): value is Blob {
  return typeof Blob !== "undefined" && value instanceof Blob;
}

/**
 * Form fields by name (spec 4.6): any object, its own enumerable properties taken in order.
 * Wider than `Record<string, unknown>` so that an interface such as `MusicParams` passes
 * without a cast.
 *
 * @example
 * ```ts
 * const params: FormParams = { model: "ACE-Step-v1-3.5B", duration: 60 };
 * ```
 */
export type FormParams = object;

/**
 * The form fields of `params` as `[name, value]` pairs, in the object's key order, each value
 * encoded by {@link encodeFormValue}; `undefined` values are omitted (spec 4.6).
 *
 * @example
 * ```ts
 * formEntries({ prompt: "lofi", lyrics: null, seed: undefined, use_erg_tag: true });
 * // [["prompt", "lofi"], ["lyrics", ""], ["use_erg_tag", "true"]]
 * ```
 */
export function formEntries(params: FormParams): [string, string][] {
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(params)) {
    const encoded = encodeFormValue(value);
    if (encoded !== undefined) entries.push([name, encoded]);
  }
  return entries;
}

/**
 * A `multipart/form-data` body for the music submit endpoint (spec 4.6), by the reference
 * client's rules (see {@link encodeFormValue}). A `Blob`/`File` value is appended as a file part;
 * every other value as text. Pass it as `fetch`'s `body` without a `Content-Type` header: fetch
 * adds the multipart boundary. Its multipart encoding sends every line break inside a value as
 * CRLF; `encodeMultipart` sends values byte for byte, as `submitMusicTask` does.
 *
 * @example
 * ```ts
 * const body = encodeForm({ model: "ACE-Step-v1-3.5B", duration: 60, use_erg_tag: true });
 * await fetch(url, { method: "POST", body, headers: { Authorization: `Bearer ${token}` } });
 * ```
 */
export function encodeForm(params: FormParams): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(params)) {
    if (isObject(value) && isBlob(value)) {
      form.append(name, value);
      continue;
    }
    const encoded = encodeFormValue(value);
    if (encoded !== undefined) form.append(name, encoded);
  }
  return form;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
