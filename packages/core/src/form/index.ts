/**
 * Form encoding of the reference client (spec 4.6): null → empty string, list → comma-joined,
 * boolean → `true`/`false`, anything else → its string form; `undefined` omits the field.
 * Zod-free: the extension popup bundles this module.
 *
 * ## Choices where the spec is silent
 *
 * `undefined` omits the field (as `JSON.stringify` does); `null` → `""`; arrays are comma-joined,
 * recursively, with `null`/`undefined` elements kept as empty items (`[1, null, 2]` → `1,,2`) and
 * nested arrays flattened; booleans `true`/`false`; numbers by `String(n)` (`-0` → `0`, `1e21` →
 * `1e+21`), `NaN` and `±Infinity` throw; bigints by their digits; objects with their own string
 * form (`URL`, `Date`) by `String(value)`; plain objects, functions and symbols throw instead of
 * sending `[object Object]`; a `Blob` is a file part. `encodeMultipart` writes every value byte for
 * byte (`FormData` sends each LF inside a value as CRLF).
 *
 * @packageDocumentation
 */
export { encodeFormValue, formEntries, encodeForm } from "./encode.ts";
export type { FormParams } from "./encode.ts";
export { encodeMultipart } from "./multipart.ts";
export type { MultipartBody } from "./multipart.ts";
