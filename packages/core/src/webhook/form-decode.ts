const encoder = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF, as URLSearchParams and decodeURIComponent do.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Decodes one key or value as `application/x-www-form-urlencoded` (WHATWG URL, "percent-decode"):
 * `+` becomes a space, each `%XX` becomes the byte XX, and the bytes are read as UTF-8 with
 * invalid sequences replaced by U+FFFD. A `%` not followed by two hex digits stays as is. This is
 * what `URLSearchParams` does, applied to one component.
 */
export function decodeFormComponent(text: string): string {
  return decodePercentComponent(text.includes("+") ? text.replaceAll("+", " ") : text);
}

/**
 * Decodes the `%XX` escapes of one key or value as UTF-8 and leaves `+` as it is (what
 * `decodeURIComponent` does, without its exceptions): invalid UTF-8 becomes U+FFFD and a `%` not
 * followed by two hex digits stays as is, as in {@link decodeFormComponent}.
 */
export function decodePercentComponent(text: string): string {
  if (!text.includes("%")) return text;
  try {
    // Fast and exact for well-formed input; it throws on a stray `%` or invalid UTF-8.
    return decodeURIComponent(text);
  } catch {
    return decodeBytes(text);
  }
}

function decodeBytes(text: string): string {
  const source = encoder.encode(text);
  const bytes = new Uint8Array(source.length);
  let n = 0;
  for (let i = 0; i < source.length; i++) {
    const byte = source[i] ?? 0;
    const high = byte === 0x25 ? hexValue(source[i + 1]) : -1;
    const low = high === -1 ? -1 : hexValue(source[i + 2]);
    if (low === -1) {
      bytes[n++] = byte;
    } else {
      bytes[n++] = high * 16 + low;
      i += 2;
    }
  }
  return decoder.decode(bytes.subarray(0, n));
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}
