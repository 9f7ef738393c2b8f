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
// Any surrogate or NUL: a quick scan without look-around that rules out almost every string, so
// the exact pattern (paired surrogates are fine) only runs on the rare text that has one.
// eslint-disable-next-line no-control-regex
const SUSPECT = /[\ud800-\udfff\u0000]/;
const UNSTORABLE_ONE = new RegExp(UNSTORABLE.source); // no `g`: test() keeps no lastIndex

const unstorable = (text: string) => SUSPECT.test(text) && UNSTORABLE_ONE.test(text);

/** `text` with NUL and unpaired surrogates replaced by U+FFFD (the same string when it has none). */
export function storableText(text: string): string {
  return unstorable(text) ? text.replace(UNSTORABLE, "\ufffd") : text;
}

/** An identifier usable as a unique key: storable, and hashed when too long for an index. */
export function storableId(id: string): string {
  const text = storableText(id);
  if (text.length <= MAX_ID_LENGTH) return text;
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/**
 * What one walk over a parsed JSON value finds: objects or arrays nested deeper than `max`
 * (iterative, so safe at any depth; the root is at depth 0), or else a key or string the
 * database refuses. Runs on every report on the webhook path, so it allocates only its two
 * stacks and one closure.
 */
export function inspectJson(value: unknown, max: number): "too_deep" | "unstorable" | "storable" {
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  let found: "unstorable" | "storable" = "storable";
  const visit = (child: unknown, depth: number) => {
    if (typeof child === "string") {
      if (found === "storable" && unstorable(child)) found = "unstorable";
    } else if (typeof child === "object" && child !== null) {
      nodes.push(child);
      depths.push(depth);
    }
  };
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop() ?? 0;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= max) return "too_deep";
    if (Array.isArray(node)) {
      for (const item of node as unknown[]) visit(item, depth + 1);
      continue;
    }
    for (const key in node) {
      if (found === "storable" && unstorable(key)) found = "unstorable";
      visit((node as Record<string, unknown>)[key], depth + 1);
    }
  }
  return found;
}

/**
 * A JSON object made storable: the same object when nothing needs changing (the common case,
 * one walk), a copy with every string (keys too) cleaned otherwise, and a note instead of a
 * value nested too deep.
 */
export function storableObject(
  value: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null | undefined {
  if (value === null || value === undefined) return value;
  const found = inspectJson(value, MAX_JSON_DEPTH);
  if (found === "too_deep") {
    return {
      overture_note: `The platform sent a value nested deeper than ${MAX_JSON_DEPTH} levels; it was not stored.`,
    };
  }
  return found === "storable" ? value : (clean(value) as Record<string, unknown>);
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
