import { type LibraryQuery, isDefaultQuery, matchesQuery } from "../shared/library-query.ts";
import type { Deletion } from "../shared/snapshot.ts";
import type { Task } from "../shared/types.ts";

/** What the task list is made of: the snapshot's live rows and the pages the view fetched. */
export interface LibrarySources {
  /** The snapshot's newest tasks, kept fresh by live events. */
  live: readonly Task[];
  /** Rows the view fetched: older pages, or the pages of a search. */
  pages: readonly Task[];
  /** Whether the backend has more pages after `pages`. */
  more: boolean;
  query: LibraryQuery;
  /** Tasks deleted anywhere, as the snapshot learned of them. */
  deletions: readonly Deletion[];
  /** Tasks deleted from this view and not restored yet. */
  hidden: ReadonlySet<string>;
}

/** The backend's order for a sort (`services/tasks/list.ts`): negative when `a` comes first. */
function compare(query: LibraryQuery, a: Task, b: Task): number {
  const byId = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  if (query.sort === "title") {
    const [x, y] = [a.title.toLowerCase(), b.title.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : byId;
  }
  const byTime = a.created_at.localeCompare(b.created_at) || byId;
  return query.sort === "oldest" ? byTime : -byTime;
}

/** `rows` with `task` put before the first row it sorts before (the rows' own order is kept). */
function insertSorted(rows: Task[], task: Task, query: LibraryQuery): void {
  const at = rows.findIndex((row) => compare(query, task, row) < 0);
  if (at < 0) rows.push(task);
  else rows.splice(at, 0, task);
}

/**
 * The list the task panel shows. The default query: the live rows, then older pages. A search,
 * filter or sort: its pages, each row replaced by a newer live copy while that still matches,
 * and live rows the pages miss (a task made, renamed or finished since) put in their place when
 * they match. Tasks deleted here or elsewhere are left out of both.
 */
export function libraryRows(sources: LibrarySources): Task[] {
  const { live, pages, query } = sources;
  const gone = new Set([...sources.hidden, ...sources.deletions.map((d) => d.id)]);
  const kept = (task: Task) => !gone.has(task.id);
  if (isDefaultQuery(query)) {
    const known = new Set(live.map((task) => task.id));
    return [...live.filter(kept), ...pages.filter((task) => !known.has(task.id) && kept(task))];
  }
  const fresh = new Map(live.map((task) => [task.id, task]));
  const rows: Task[] = [];
  for (const row of pages) {
    const newer = fresh.get(row.id);
    if (!newer || newer.updated_at <= row.updated_at) rows.push(row);
    else if (matchesQuery(newer, query)) rows.push(newer);
  }
  const listed = new Set(pages.map((task) => task.id));
  const last = pages[pages.length - 1];
  for (const task of live) {
    if (listed.has(task.id) || !matchesQuery(task, query)) continue;
    // Past the last row while pages remain: a later page brings it, in the backend's order.
    if (sources.more && last && compare(query, task, last) > 0) continue;
    insertSorted(rows, task, query);
  }
  return rows.filter(kept);
}
