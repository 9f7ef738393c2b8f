/**
 * Form encoding of the reference client (spec 4.6): null → empty string, list → comma-joined,
 * boolean → `true`/`false`, anything else → its string form; `undefined` omits the field.
 * Zod-free: the extension popup bundles this module.
 *
 * @packageDocumentation
 */
export { encodeFormValue, formEntries, encodeForm } from "./encode.ts";
export type { FormParams } from "./encode.ts";
export { encodeMultipart } from "./multipart.ts";
export type { MultipartBody } from "./multipart.ts";
