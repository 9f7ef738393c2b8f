/** A section tag alone on its line: `[verse]`, `[Chorus 2]`, `[pre-chorus]`. */
const SECTION_LINE = /^[ \t]*\[([^[\]\r\n]{1,40})\][ \t]*$/gm;

/**
 * The section tags of lyrics (`[verse]`, `[chorus]`, `[bridge]`, ...), in order of appearance,
 * repeats included, as written inside the brackets (trimmed). Only a tag alone on its line
 * counts: ACE-Step reads structure tags that way, and an inline `[laughs]` is not a section.
 * The `lyrics` field of spec 4.6 is free text; this is a reading aid for the UI.
 *
 * @example
 * ```ts
 * lyricSections("[verse]\nHello\n[chorus]\nLa la\n[verse]\nAgain");
 * // ["verse", "chorus", "verse"]
 * ```
 */
export function lyricSections(lyrics: string): string[] {
  return [...lyrics.matchAll(SECTION_LINE)].map((match) => (match[1] ?? "").trim());
}
