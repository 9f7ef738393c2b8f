/**
 * Why a text cannot be stored in Postgres (a `text` or `jsonb` column): `nul` is U+0000, which
 * neither accepts (jsonb: "\u0000 cannot be converted to text", SQLSTATE 22P05; text: "invalid
 * byte sequence for encoding UTF8: 0x00", 22021); `lone_surrogate` is half of a UTF-16 surrogate
 * pair, which has no UTF-8 form: jsonb refuses its escape (22P02), and a driver that encodes it to
 * UTF-8 for a text column silently replaces it with U+FFFD.
 *
 * @example
 * ```ts
 * const reason: UnstorableReason = "nul";
 * ```
 */
export type UnstorableReason = "nul" | "lone_surrogate";

/**
 * Where and why a text cannot be stored. `index` is the UTF-16 index (for `slice`), the message
 * counts positions in characters (code points) from 1, as a person reads them, and never quotes
 * the text.
 *
 * @example
 * ```ts
 * // { reason: "nul", index: 2, message: "contains a NUL character (U+0000) at position 3, ..." }
 * const found: UnstorableText | undefined = findUnstorableText("ab\u0000");
 * ```
 */
export interface UnstorableText {
  readonly reason: UnstorableReason;
  readonly index: number;
  readonly message: string;
}

/**
 * The first character of `text` that Postgres cannot store, or `undefined` when there is none:
 * a NUL (U+0000) or a lone UTF-16 surrogate. Check user and platform text with it before it
 * reaches a `text` or `jsonb` column (titles, prompts, device names, namespaces, error messages),
 * so the request is refused with a clear message instead of failing in the database.
 *
 * @example
 * ```ts
 * const bad = findUnstorableText(title);
 * if (bad) return c.json({ error: "invalid_title", message: `title ${bad.message}` }, 400);
 * ```
 */
export function findUnstorableText(text: string): UnstorableText | undefined {
  let position = 0;
  for (let i = 0; i < text.length; i++) {
    position++;
    const unit = text.charCodeAt(i);
    if (unit === 0) return unstorable("nul", i, position, "a NUL character (U+0000)");
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++; // a well-formed pair: one character
      continue;
    }
    const hex = unit.toString(16).toUpperCase();
    return unstorable("lone_surrogate", i, position, `a lone UTF-16 surrogate (U+${hex})`);
  }
  return undefined;
}

function unstorable(
  reason: UnstorableReason,
  index: number,
  position: number,
  what: string,
): UnstorableText {
  const message = `contains ${what} at position ${position}, which cannot be stored`;
  return { reason, index, message };
}

/**
 * {@link UnstorableText} found inside a JSON value, with the path to the string (or key) that
 * holds it.
 *
 * @example
 * ```ts
 * const found: UnstorableValue | undefined = findUnstorableValue(task.output);
 * if (found) log.warn({ path: found.path.join(".") }, found.message);
 * ```
 */
export interface UnstorableValue extends UnstorableText {
  readonly path: readonly (string | number)[];
}

/**
 * The first string or object key inside `value` (a parsed JSON value) that Postgres cannot store
 * (see {@link findUnstorableText}), with its path; `undefined` when there is none. For a platform
 * body on its way to a `jsonb` column.
 *
 * @example
 * ```ts
 * findUnstorableValue({ output: { error: "bad\u0000" } })?.path; // ["output", "error"]
 * ```
 */
export function findUnstorableValue(
  value: unknown,
  path: readonly (string | number)[] = [],
): UnstorableValue | undefined {
  if (typeof value === "string") {
    const found = findUnstorableText(value);
    return found && { ...found, path };
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findUnstorableValue(item, [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const inKey = findUnstorableText(key);
    if (inKey) return { ...inKey, path: [...path, key] };
    const found = findUnstorableValue(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * `text` with every line break as LF: CRLF (Windows) and a lone CR (old Mac) become `\n`. A paste
 * from another system then reaches the platform as it would from this one, and lengths count one
 * character per line break.
 *
 * @example
 * ```ts
 * normalizeLineBreaks("verse\r\nchorus\r"); // "verse\nchorus\n"
 * ```
 */
export function normalizeLineBreaks(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/**
 * The number of characters in `text`, counted as Unicode code points: what Python's `len`
 * returns, which is how a Python server most likely checks a length limit. An emoji is one
 * character (two UTF-16 units); a character built of several code points (an accent added to a
 * letter, an emoji with a skin tone) counts each of them; a lone surrogate counts as one.
 *
 * @example
 * ```ts
 * countCharacters("a🎵b"); // 3 (JavaScript's "a🎵b".length is 4)
 * ```
 */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
