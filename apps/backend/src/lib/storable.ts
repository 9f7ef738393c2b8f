/**
 * Postgres cannot store every value JavaScript can hold, and a platform report (a signed webhook
 * or a polled record) that cannot be stored would fail its transaction on every retry: the
 * event would never be stored and the task would be stuck. So reports are made storable first:
 *
 * - `text` refuses NUL (U+0000) and `jsonb` also refuses the escape of an unpaired UTF-16
 *   surrogate (`"\ud800"`, what `JSON.stringify` writes for one): such characters become U+FFFD,
 *   the replacement character, as a UTF-8 decoder treats bytes it cannot read.
 * - An identifier longer than {@link MAX_ID_LENGTH} characters (`event_id`, `task_id`) becomes
 *   `sha256:<hex>` of itself: unique indexes refuse keys past ~2.7 KB, and equal ids still map to
 *   equal keys, so re-deliveries are still recognised.
 * - JSON nested deeper than {@link MAX_JSON_DEPTH} levels (a 256 KB body can nest 100,000 deep,
 *   past what `JSON.stringify` and Postgres can recurse) is replaced by a note saying so.
 */

import { createHash } from "node:crypto";

export const MAX_JSON_DEPTH = 32;
export const MAX_ID_LENGTH = 200;

// An unpaired surrogate, or NUL (matching NUL is the point here).
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/g;
// How JSON.stringify writes them: `\u0000` and `\udXXX` escapes (paired surrogates stay raw).
const UNSTORABLE_ESCAPE = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;

/** `text` with NUL and unpaired surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, "\ufffd");
}

/** An identifier usable as a unique key: storable, and hashed when too long for an index. */
export function storableId(id: string): string {
  const text = storableText(id);
  if (text.length <= MAX_ID_LENGTH) return text;
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/** Whether `value` nests objects or arrays deeper than `max` (iterative: safe at any depth). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * A JSON object made storable: the same object when nothing needs changing (the common case,
 * one walk and one `JSON.stringify`), a copy with every string (keys too) cleaned otherwise, and
 * a note instead of a value nested too deep.
 */
export function storableObject(
  value: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null | undefined {
  if (value === null || value === undefined) return value;
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    return {
      overture_note: `The platform sent a value nested deeper than ${MAX_JSON_DEPTH} levels; it was not stored.`,
    };
  }
  if (!UNSTORABLE_ESCAPE.test(JSON.stringify(value))) return value;
  return clean(value) as Record<string, unknown>;
}

function clean(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [storableText(key), clean(item)]),
    );
  }
  return value;
}
