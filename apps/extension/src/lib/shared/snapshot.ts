import type { Quota, Refusal, Selection, Task, TaskState, User } from "./types.ts";

/** Where the person stands with the backend. */
export type AuthState = "signed_out" | "signed_in" | "revoked" | "expired";
/** Whether the last call reached the backend. */
export type Connectivity = "online" | "offline" | "unreachable";
/** Why the last sign-in did not finish. */
export type SignInProblem =
  "denied" | "cancelled" | "redirect_refused" | "failed" | "unreachable" | "rate_limited";

/**
 * Everything a view needs to render at once, written by the background after every refresh and
 * event, read by views from storage before any network call (the popup shows it immediately).
 */
export interface Snapshot {
  auth: AuthState;
  user: User | null;
  signInProblem: SignInProblem | null;
  /**
   * When a sign-in refused as `rate_limited` may be tried again (ms since the epoch), when the
   * backend said: a time, not a wait, so a view opened later counts what is left.
   */
  signInRetryAt: number | null;
  connectivity: Connectivity;
  selection: Selection | null;
  tasks: Task[];
  /**
   * Tasks recently deleted (here or on another device), so that a view drops them from older
   * pages and search results it fetched itself, which the snapshot's `tasks` do not cover.
   */
  deletions: Deletion[];
  nextCursor: string | null;
  quota: Quota | null;
  /** Whether the selected account has a webhook secret (live callbacks) or polling only. */
  webhookConfigured: boolean | null;
  /** The selected account's refused webhook deliveries since its secret was saved, newest first. */
  webhookRefusals: Refusal[];
  updatedAt: number;
}

/** A deleted task: its id and the `updated_at` of the row that said so. */
export interface Deletion {
  id: string;
  at: string;
}

export const EMPTY_SNAPSHOT: Snapshot = {
  auth: "signed_out",
  user: null,
  signInProblem: null,
  signInRetryAt: null,
  connectivity: "online",
  selection: null,
  tasks: [],
  deletions: [],
  nextCursor: null,
  quota: null,
  webhookConfigured: null,
  webhookRefusals: [],
  updatedAt: 0,
};

/** How many tasks the snapshot keeps; older ones are fetched page by page. */
export const SNAPSHOT_TASK_LIMIT = 50;

/** States a task can still leave on its own: the badge counts these. */
export const ACTIVE_STATES: readonly TaskState[] = [
  "queued",
  "submitting",
  "waiting",
  "in_progress",
];
/** States the person can cancel from (the platform's two, plus the backend's local queue). */
export const CANCELLABLE_STATES: readonly TaskState[] = ["queued", "waiting", "in_progress"];
/** States that end a task for the person: a notification is due when one is reached. */
export const FINAL_STATES: readonly TaskState[] = [
  "success",
  "failure",
  "cancelled",
  "rejected",
  "unknown",
];

export const isActive = (task: Task): boolean => ACTIVE_STATES.includes(task.status);
export const isFinal = (task: Task): boolean => FINAL_STATES.includes(task.status);
export const isCancellable = (task: Task): boolean => CANCELLABLE_STATES.includes(task.status);

/** Whether the selected account's quota is known to be used up. */
export const quotaFull = (quota: Quota | null): boolean => quota?.available === 0;

/** Number of tasks still running or waiting. */
export function activeCount(tasks: readonly Task[]): number {
  return tasks.filter(isActive).length;
}

/** Newest first by creation time, ties by id so the order is stable. */
function newestFirst(a: Task, b: Task): number {
  return b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);
}

/**
 * Merges fresh task rows into the known list: a row replaces the known one unless it is older
 * (`updated_at`), so a late page never undoes a live event. A row with `deleted_at` (a deletion,
 * waiting for its undo window to pass) leaves the list; its restore comes back as a newer row.
 */
export function mergeTasks(known: readonly Task[], fresh: readonly Task[]): Task[] {
  const byId = new Map(known.map((task) => [task.id, task]));
  for (const task of fresh) {
    const current = byId.get(task.id);
    if (!current || current.updated_at <= task.updated_at) byId.set(task.id, task);
  }
  return [...byId.values()]
    .filter((task) => task.deleted_at === null)
    .sort(newestFirst)
    .slice(0, SNAPSHOT_TASK_LIMIT);
}

/** How many deletions the snapshot remembers (a view's older pages hold at most a few hundred rows). */
export const DELETIONS_KEPT = 200;

/**
 * Notes the deletions among fresh task rows, and forgets the ones a newer row undid (a restore).
 * An older row does not undo a deletion: a late page may still carry the task as it was.
 */
export function noteDeletions(known: readonly Deletion[], fresh: readonly Task[]): Deletion[] {
  const byId = new Map(known.map((deletion) => [deletion.id, deletion]));
  let changed = false;
  for (const task of fresh) {
    const current = byId.get(task.id);
    if (task.deleted_at !== null) {
      if (current && current.at >= task.updated_at) continue;
      byId.set(task.id, { id: task.id, at: task.updated_at });
      changed = true;
    } else if (current && current.at < task.updated_at) {
      byId.delete(task.id);
      changed = true;
    }
  }
  // Unchanged: the same array, so that the snapshot is not rewritten for nothing.
  if (!changed) return known as Deletion[];
  return [...byId.values()].sort((a, b) => b.at.localeCompare(a.at)).slice(0, DELETIONS_KEPT);
}

/** Tasks that were active before and are final now: each deserves one notification. */
export function newlyFinished(before: readonly Task[], after: readonly Task[]): Task[] {
  const previous = new Map(before.map((task) => [task.id, task]));
  return after.filter((task) => {
    const old = previous.get(task.id);
    return old !== undefined && isActive(old) && isFinal(task);
  });
}
