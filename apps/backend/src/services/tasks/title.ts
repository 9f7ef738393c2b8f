/** Characters of the prompt a new track's title takes. */
const DEFAULT_TITLE_LENGTH = 60;

/**
 * The title a new task gets: the first line of its prompt, at most 60 characters (code points,
 * as Postgres counts them; migration 0004 gave older tasks the same).
 */
export function defaultTitle(prompt: unknown): string {
  const firstLine = (typeof prompt === "string" ? prompt : "").split("\n")[0] ?? "";
  const title = Array.from(firstLine.replace(/^ +| +$/g, ""))
    .slice(0, DEFAULT_TITLE_LENGTH)
    .join("");
  return title === "" ? "Untitled" : title;
}
