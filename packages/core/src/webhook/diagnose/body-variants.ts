/** A body the signer may have signed instead of the one received, with how it differs. */
export interface BodyVariant {
  readonly text: string;
  readonly how: string;
}

// Keeps a leading U+FEFF as a character, so a byte-order mark can be told apart.
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Bodies the signer may have signed instead of the one received: the body before the receiver
 * parsed and re-serialised it, or with a trailing newline or a byte-order mark added or removed
 * (the "parsed instead of raw body" cause of spec 7). A byte body is read as strict UTF-8; one
 * that is not UTF-8 has no variants. Variants equal to the body are left out. Only the failure
 * path calls this.
 */
export function bodyVariants(received: string | Uint8Array): BodyVariant[] {
  const body = typeof received === "string" ? received : decodeStrictly(received);
  if (body === undefined) return [];
  const variants: BodyVariant[] = [];
  const add = (text: string, how: string): void => {
    if (text !== body && !variants.some((v) => v.text === text)) variants.push({ text, how });
  };
  // Newline and byte-order-mark edits first: they are the smaller change, so they explain a
  // match better.
  if (body.endsWith("\r\n")) add(body.slice(0, -2), "without its trailing CRLF");
  if (body.endsWith("\n")) add(body.slice(0, -1), "without its trailing newline");
  else add(body + "\n", "with a trailing newline added");
  if (body.startsWith("\uFEFF")) add(body.slice(1), "without its leading byte-order mark");
  else add("\uFEFF" + body, "with a leading byte-order mark (U+FEFF), which decoding dropped");
  const value = parseJson(body.startsWith("\uFEFF") ? body.slice(1) : body);
  if (value !== undefined) {
    add(JSON.stringify(value), "re-serialised compactly (JSON.stringify)");
    add(JSON.stringify(value, null, 2), "pretty-printed with a 2-space indent");
    add(JSON.stringify(value, null, 4), "pretty-printed with a 4-space indent");
    const spaced = spacedJson(value);
    add(spaced, 'serialised with ", " and ": " separators (Python json.dumps style)');
    add(escapeNonAscii(spaced), "serialised Python-style with non-ASCII escaped as \\uXXXX");
    add(escapeNonAscii(JSON.stringify(value)), "re-serialised with non-ASCII escaped as \\uXXXX");
  }
  return variants;
}

function decodeStrictly(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

function parseJson(body: string): unknown {
  const first = body.trimStart().charAt(0);
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return "[" + value.map((item) => spacedJson(item)).join(", ") + "]";
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value).map(([k, v]) => JSON.stringify(k) + ": " + spacedJson(v));
    return "{" + members.join(", ") + "}";
  }
  return JSON.stringify(value);
}

function escapeNonAscii(json: string): string {
  // Outside string literals JSON is ASCII, so escaping every non-ASCII code unit is safe.
  let out = "";
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    out += c < 0x80 ? json.charAt(i) : "\\u" + c.toString(16).padStart(4, "0");
  }
  return out;
}
