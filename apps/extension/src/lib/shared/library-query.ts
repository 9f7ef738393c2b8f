import type { LibrarySort } from "@overture/backend/api";
import type { Task } from "./types.ts";

/** The library bar's filters: everything, favourites, or one group of states. */
export const LIBRARY_FILTERS = ["all", "favourites", "active", "success", "failed"] as const;
export type LibraryFilter = (typeof LIBRARY_FILTERS)[number];

/**
 * The list endpoint's orders (the backend's `LIBRARY_SORTS`), spelled out here: a view bundle
 * loads nothing of the backend's package at run time. The check below keeps the two in step.
 */
export const LIBRARY_SORT_ORDERS = [
  "newest",
  "oldest",
  "title",
] as const satisfies readonly LibrarySort[];
type UnlistedSort = Exclude<LibrarySort, (typeof LIBRARY_SORT_ORDERS)[number]>;
export const EVERY_SORT_LISTED: [UnlistedSort] extends [never] ? true : never = true;

/** What the library bar asks for; the background turns it into `GET /api/tasks`'s query. */
export interface LibraryQuery {
  q: string;
  filter: LibraryFilter;
  sort: LibrarySort;
}

export const DEFAULT_LIBRARY_QUERY: LibraryQuery = { q: "", filter: "all", sort: "newest" };

/** The default shows the snapshot's live list; anything else is a search of the library. */
export function isDefaultQuery(query: LibraryQuery): boolean {
  return query.q.trim() === "" && query.filter === "all" && query.sort === "newest";
}

const STATUSES: Partial<Record<LibraryFilter, string>> = {
  active: "queued,submitting,waiting,in_progress",
  success: "success",
  failed: "failure,rejected,cancelled,unknown",
};

/** The text search looks in, as the backend's ILIKE does: title, prompt and lyrics. */
function searchedText(task: Task): string[] {
  const text = (key: string) => (typeof task.params[key] === "string" ? task.params[key] : "");
  return [task.title, text("prompt"), text("lyrics")];
}

/**
 * Whether a task belongs in a library query's results, judged here the way the backend would:
 * for tasks the view learns of itself (a new one, a rename, a new status) while a search shows.
 */
export function matchesQuery(task: Task, query: LibraryQuery): boolean {
  if (task.deleted_at !== null) return false;
  if (query.filter === "favourites" && !task.favourite) return false;
  const statuses = STATUSES[query.filter];
  if (statuses && !statuses.split(",").includes(task.status)) return false;
  const q = query.q.trim().toLowerCase();
  return q === "" || searchedText(task).some((text) => text.toLowerCase().includes(q));
}

/** `GET /api/tasks`'s query parameters for a library query (and a page's cursor). */
export function listParams(query: LibraryQuery, cursor?: string): Record<string, string> {
  const q = query.q.trim();
  const status = STATUSES[query.filter];
  return {
    sort: query.sort,
    ...(q ? { q } : {}),
    ...(query.filter === "favourites" ? { favourite: "true" } : {}),
    ...(status ? { status } : {}),
    ...(cursor ? { cursor } : {}),
  };
}
