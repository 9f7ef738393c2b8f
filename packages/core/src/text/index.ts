/**
 * Text rules shared by every place user or platform text goes: the characters Postgres cannot
 * store (NUL, lone surrogates), line breaks as LF, and lengths in characters (code points).
 * Zod-free and dependency-free: the extension bundles it.
 *
 * @packageDocumentation
 */
export {
  countCharacters,
  findUnstorableText,
  findUnstorableValue,
  normalizeLineBreaks,
} from "./text.ts";
export type { UnstorableReason, UnstorableText, UnstorableValue } from "./text.ts";
