import { useEffect, useRef, useState } from "preact/hooks";
import {
  DEFAULT_LIBRARY_QUERY,
  type LibraryQuery,
  isDefaultQuery,
} from "../../lib/shared/library-query.ts";
import { libraryRows } from "../../lib/views/library-rows.ts";
import { send } from "../../lib/shared/messages.ts";
import type { Snapshot } from "../../lib/shared/snapshot.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { Task } from "../../lib/shared/types.ts";

/** Typing pauses this long before the library is searched (one request per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The task panel's library state: the query (the search text applied after a pause), the pages
 * fetched for it, and tasks deleted here; `tasks` is what to show (see `libraryRows`).
 */
export function useLibrary(snapshot: Snapshot) {
  const [query, setQuery] = useState<LibraryQuery>(DEFAULT_LIBRARY_QUERY);
  const [applied, setApplied] = useState<LibraryQuery>(DEFAULT_LIBRARY_QUERY);
  const [pages, setPages] = useState<Task[]>([]);
  const [cursor, setCursor] = useState<string | null>(snapshot.nextCursor);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  // Answers to an older query arrive late sometimes: only the latest request's are kept.
  const latest = useRef(0);
  const searching = !isDefaultQuery(applied);

  // The search text waits for a pause in typing; filter and sort apply at once.
  useEffect(() => {
    const wait = query.q === applied.q ? 0 : SEARCH_DEBOUNCE_MS;
    const timer = setTimeout(() => {
      setApplied(query);
    }, wait);
    return () => {
      clearTimeout(timer);
    };
  }, [query]);

  const load = (from: LibraryQuery, after: string | null) => {
    const request = ++latest.current;
    setLoading(true);
    setProblem(null);
    const page = isDefaultQuery(from)
      ? after
        ? send("tasks/more", { cursor: after })
        : Promise.resolve({ tasks: [], next_cursor: snapshot.nextCursor })
      : send("tasks/search", { query: from, ...(after ? { cursor: after } : {}) });
    page
      .then((answer) => {
        if (request !== latest.current) return;
        setPages((rows) => {
          if (!after) return answer.tasks;
          // A task can move between pages while they load (a new one pushes the rest down).
          const known = new Set(rows.map((row) => row.id));
          return [...rows, ...answer.tasks.filter((task) => !known.has(task.id))];
        });
        setCursor(answer.next_cursor);
      })
      .catch((error: unknown) => {
        if (request === latest.current) setProblem(errorText(error));
      })
      .finally(() => {
        if (request === latest.current) setLoading(false);
      });
  };

  useEffect(() => {
    load(applied, null);
  }, [applied]);

  const tasks = libraryRows({
    live: snapshot.tasks,
    pages,
    more: cursor !== null,
    query: applied,
    deletions: snapshot.deletions,
    hidden,
  });

  const show = (task: Task, shown: boolean) => {
    setHidden((ids) => {
      const next = new Set(ids);
      if (shown) next.delete(task.id);
      else next.add(task.id);
      return next;
    });
    if (shown) setPages((rows) => rows.map((row) => (row.id === task.id ? task : row)));
  };

  return {
    query,
    setQuery,
    searching,
    tasks,
    cursor,
    loading,
    problem,
    more: () => {
      if (cursor) load(applied, cursor);
    },
    hide: (task: Task) => {
      show(task, false);
    },
    unhide: (task: Task) => {
      show(task, true);
    },
  };
}
