import { clock } from "../shared/format.ts";
import { i18n, uiLanguage } from "../shared/i18n.ts";
import type { Task } from "../shared/types.ts";

/**
 * What a library row says about a track in its one line of detail, and what tells two takes of
 * the same song apart: a regenerated track has the same title and prompt as its original.
 */

const text = (task: Task, key: string): string => {
  const value = task.params[key];
  return typeof value === "string" ? value.trim() : "";
};

/** The song a task is a take of: its prompt and lyrics (other settings may change between takes). */
const songOf = (task: Task) => `${text(task, "prompt")}\u0000${text(task, "lyrics")}`;

/** Each task's take among the known tasks of the same song, oldest first: `take` of `of`. */
export function takesOf(tasks: readonly Task[]): Map<string, { take: number; of: number }> {
  const bySong = new Map<string, Task[]>();
  for (const task of tasks) {
    const song = songOf(task);
    const list = bySong.get(song) ?? [];
    if (!list.some((known) => known.id === task.id)) list.push(task);
    bySong.set(song, list);
  }
  const takes = new Map<string, { take: number; of: number }>();
  for (const list of bySong.values()) {
    list.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    list.forEach((task, index) => takes.set(task.id, { take: index + 1, of: list.length }));
  }
  return takes;
}

/** The seeds a task was made with, when the person set them (none: the platform chose). */
export function seedsOf(task: Task): number[] {
  const seeds = task.params.seeds;
  return Array.isArray(seeds) ? seeds.filter((s): s is number => typeof s === "number") : [];
}

/** When a task was made, as short as it can be told: the time today, else the day and time. */
export function madeAt(task: Task, now: number): string {
  const date = new Date(task.created_at);
  const today = new Date(now).toDateString() === date.toDateString();
  const language = uiLanguage();
  // The hour as the language writes it: "9:05 AM" in English, "09:05" in Chinese (a 2-digit
  // hour read "09:05 AM", which English does not write).
  const { hour12 } = new Intl.DateTimeFormat(language, { timeStyle: "short" }).resolvedOptions();
  const time: Intl.DateTimeFormatOptions = {
    hour: hour12 ? "numeric" : "2-digit",
    minute: "2-digit",
  };
  const options: Intl.DateTimeFormatOptions = today
    ? time
    : { month: "short", day: "numeric", ...time };
  return date.toLocaleString(language, options);
}

/** The first sung line of the lyrics, without section tags (`[verse]`). */
function firstLyricLine(task: Task): string {
  for (const line of text(task, "lyrics").split("\n")) {
    const sung = line.replace(/\[[^\]]*\]/g, "").trim();
    if (sung) return sung;
  }
  return "";
}

/**
 * What the track is, in a few words, not repeating its title: the style prompt when the track
 * was renamed (the title is the prompt's start until then), else the first sung line, else
 * "Instrumental".
 */
export function styleLine(task: Task): string {
  const prompt = text(task, "prompt");
  const title = task.title.trim();
  if (prompt && title && !prompt.startsWith(title.replace(/…$/, ""))) return prompt;
  const sung = firstLyricLine(task);
  return sung ? `♪ ${sung}` : i18n.t("track.instrumental");
}

/**
 * A finished track's line under its title: what it is, which take (when there are several),
 * when it was made, and its seed when one was set.
 */
export function detailLine(
  task: Task,
  take: { take: number; of: number } | undefined,
  now: number,
): string {
  const seeds = seedsOf(task);
  return [
    styleLine(task),
    take && take.of > 1 ? i18n.t("track.take", { take: take.take }) : null,
    madeAt(task, now),
    seeds.length > 0 ? i18n.t("track.seed", { seed: seeds.join(", ") }) : null,
  ]
    .filter((part): part is string => Boolean(part))
    .join(" · ");
}

/**
 * A track's length in seconds before its audio is read: the waveform's when known, else what
 * the platform reported (`usage_info` in seconds), else what was asked for.
 */
export function trackSeconds(task: Task, known?: number | null): number | null {
  if (known && known > 0) return known;
  const usage = task.usage_info as { unit?: unknown; quantity?: unknown } | null;
  if (typeof usage?.unit === "string" && usage.unit.startsWith("second"))
    if (typeof usage.quantity === "number" && usage.quantity > 0) return usage.quantity;
  const asked = task.params.duration;
  return typeof asked === "number" && asked > 0 ? asked : null;
}

/** A length as the row shows it (`m:ss`), or a dash when none is known. */
export const lengthText = (seconds: number | null): string =>
  seconds === null ? "–" : clock(seconds * 1000);
