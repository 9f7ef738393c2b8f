import { i18n } from "./i18n.ts";
import { isFinal } from "./snapshot.ts";
import type { Task } from "./types.ts";

const TITLE_LENGTH = 60;
const FILE_NAME_LENGTH = 80;

/** A task's name for a person: the start of its prompt. */
export function taskTitle(task: Task): string {
  const own = ownTitle(task);
  if (own) return own;
  const prompt = typeof task.params.prompt === "string" ? task.params.prompt.trim() : "";
  if (!prompt) return i18n.t("task.untitled");
  const chars = Array.from(prompt);
  return chars.length > TITLE_LENGTH ? `${chars.slice(0, TITLE_LENGTH - 1).join("")}…` : prompt;
}

/** The track's title in the library (the backend fills it from the prompt; the owner may rename). */
function ownTitle(task: Task): string | null {
  const title = task.title.trim();
  return title === "" ? null : title;
}

/**
 * A file name for the track (without extension): its title, else the start of its prompt, else
 * `overture-<id>`; without the characters a file system refuses, at most 80 characters (cut at a word).
 */
export function trackFileName(task: Task): string {
  const prompt = typeof task.params.prompt === "string" ? task.params.prompt : "";
  const chars = Array.from(
    (ownTitle(task) ?? prompt)
      // eslint-disable-next-line no-control-regex -- control characters are what is removed
      .replace(/[\u0000-\u001f\u007f<>:"/\\|?*~]+/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
  let name = chars.slice(0, FILE_NAME_LENGTH).join("");
  // A long name ends at a word rather than inside one, when a word boundary is not too far back.
  const space = name.lastIndexOf(" ");
  if (chars.length > FILE_NAME_LENGTH && space > FILE_NAME_LENGTH / 2) name = name.slice(0, space);
  // Windows refuses a trailing dot or space; a leading dot hides the file elsewhere.
  name = name.replace(/^[.\s]+|[.,;\s]+$/g, "");
  return name || `overture-${task.id}`;
}

/** Whether a task's result is archived with an MP3 that can be streamed (and downloaded). */
export function streamable(task: Task): boolean {
  return task.archive?.status === "archived" && Boolean(task.archive.mp3_url);
}

/** Whether the platform's result link still works, and for how long. */
export function linkState(task: Task, now: number): { valid: boolean; remainingMs: number | null } {
  if (!task.file_url) return { valid: false, remainingMs: null };
  if (!task.file_expires_at) return { valid: true, remainingMs: null };
  const remainingMs = Date.parse(task.file_expires_at) - now;
  return { valid: remainingMs > 0, remainingMs: Math.max(0, remainingMs) };
}

/**
 * When a task stopped changing: its finish time, or for a final state without one (an unknown
 * outcome, a cancel the backend did not time) its last update. Null while it is still active.
 */
export function endedAt(task: Task): number | null {
  if (task.finished_at) return Date.parse(task.finished_at);
  return isFinal(task) ? Date.parse(task.updated_at) : null;
}

/** Time a task has run (or ran): from creation to its end, or to now while it is active. */
export function elapsedMs(task: Task, now: number): number {
  return Math.max(0, (endedAt(task) ?? now) - Date.parse(task.created_at));
}

/**
 * The task's time in words fitting its state; the clock stops at a final state. A running task
 * says "usually 1 to 10 minutes" unless `estimate` (from the user's own history) is given.
 */
export function timeLine(task: Task, now: number, estimate?: string): string {
  const time = clock(elapsedMs(task, now));
  switch (task.status) {
    case "queued":
      return i18n.t("task.queuedFor", { time });
    case "submitting":
      return i18n.t("task.submittingFor", { time });
    case "success":
      return i18n.t("task.took", { time });
    case "failure":
      return i18n.t("task.failedAfter", { time });
    case "cancelled":
      return i18n.t("task.cancelledAfter", { time });
    case "rejected":
      return i18n.t("task.refusedAfter", { time });
    case "unknown":
      return i18n.t("task.lastSeen", { time: remaining(now - (endedAt(task) ?? now)) });
    default:
      return estimate
        ? i18n.t("task.elapsedEstimate", { time, estimate })
        : i18n.t("task.elapsed", { time });
  }
}

/** `m:ss`, or `h:mm:ss` past an hour. */
export function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** A coarse remaining time: "23 h", "45 min", "under a minute". */
export function remaining(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return i18n.t("time.underMinute");
  if (minutes < 60) return i18n.t("time.minutes", { count: minutes });
  return i18n.t("time.hours", { count: Math.floor(minutes / 60) });
}
