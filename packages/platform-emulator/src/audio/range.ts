/** A satisfiable byte range: `start` to `end`, both inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a `Range` header (RFC 9110 14.2) for a body of `size` bytes. One range only: a missing,
 * malformed or multi-range header gives `undefined` (the server may ignore it and send the whole
 * body, as many object stores do with several ranges); a range past the end is `"unsatisfiable"`.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | "unsatisfiable" | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match) return undefined;
  const [, from = "", to = ""] = match;
  if (from === "" && to === "") return undefined;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== "" && Number(to) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}
