import { encodeFormValue, type FormParams } from "./encode.ts";

/**
 * A `multipart/form-data` body written by hand, and the `Content-Type` that names its boundary.
 *
 * @example
 * ```ts
 * const { body, contentType }: MultipartBody = encodeMultipart({ prompt: "lofi" });
 * ```
 */
export interface MultipartBody {
  readonly body: Blob;
  readonly contentType: string;
}

// Escapes of a name or filename in a part header, as the HTML standard's multipart encoding
// writes them: a quote and the two line break characters.
const HEADER_ESCAPES: Record<string, string> = { '"': "%22", "\r": "%0D", "\n": "%0A" };
const escapeHeader = (text: string): string =>
  text.replace(/["\r\n]/g, (c) => HEADER_ESCAPES[c] ?? c);

function randomBoundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `----overture-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * A `multipart/form-data` body for `params` by the reference client's rules (see
 * `encodeFormValue`; spec 4.6), with every text value sent byte for byte. `FormData` cannot do
 * that: its multipart encoding turns every LF in a value into CRLF (HTML standard, "convert to
 * CRLF"), so lyrics typed with LF would reach the platform with CRLF. A `Blob`/`File` value is a
 * file part with its name and type. Pass `body` as `fetch`'s body with `contentType` as the
 * `Content-Type` header.
 *
 * @throws TypeError for a value without a string form (see `encodeFormValue`).
 *
 * @example
 * ```ts
 * const { body, contentType } = encodeMultipart({ prompt: "lofi", lyrics: "[verse]\nla" });
 * await fetch(url, { method: "POST", body, headers: { "Content-Type": contentType } });
 * ```
 */
export function encodeMultipart(params: FormParams): MultipartBody {
  const fields: [name: string, value: string | Blob][] = [];
  for (const [name, value] of Object.entries(params)) {
    if (typeof Blob !== "undefined" && value instanceof Blob) {
      fields.push([name, value]);
      continue;
    }
    const encoded = encodeFormValue(value);
    if (encoded !== undefined) fields.push([name, encoded]);
  }
  // 128 random bits: a file part cannot be searched synchronously, and text parts are checked.
  let boundary = randomBoundary();
  for (
    let tries = 0;
    fields.some(([, v]) => typeof v === "string" && v.includes(boundary));
    tries++
  ) {
    if (tries === 3) throw new Error("no multipart boundary absent from the values");
    boundary = randomBoundary();
  }
  const parts: (string | Blob)[] = [];
  for (const [name, value] of fields) {
    let header = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeHeader(name)}"`;
    if (typeof value !== "string") {
      const named = (value as { name?: unknown }).name; // a File has one
      const filename = typeof named === "string" ? named : "blob";
      header += `; filename="${escapeHeader(filename)}"\r\nContent-Type: ${value.type || "application/octet-stream"}`;
    }
    parts.push(`${header}\r\n\r\n`, value, "\r\n");
  }
  parts.push(`--${boundary}--\r\n`);
  // Blob keeps strings as their UTF-8 bytes, line breaks untouched (endings: "transparent").
  return { body: new Blob(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
