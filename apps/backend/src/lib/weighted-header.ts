/**
 * The entries of a header with `q=` weights (Accept-Encoding, Accept-Language), lower-cased, in
 * the order sent; a missing weight is 1, an unreadable one 0 (refused).
 */
export function weightedEntries(header: string | undefined): { value: string; q: number }[] {
  const entries: { value: string; q: number }[] = [];
  for (const part of (header ?? "").split(",")) {
    const [value = "", ...params] = part.trim().toLowerCase().split(";");
    if (value === "") continue;
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = weight ? Number(weight.slice(2)) : 1;
    entries.push({ value, q: Number.isFinite(q) ? q : 0 });
  }
  return entries;
}
