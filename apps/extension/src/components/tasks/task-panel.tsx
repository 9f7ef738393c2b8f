import { useEffect, useRef, useState } from "preact/hooks";
import { i18n } from "../../lib/shared/i18n.ts";
import { refusalFor } from "../../lib/shared/refusals.ts";
import type { Snapshot } from "../../lib/shared/snapshot.ts";
import type { Task } from "../../lib/shared/types.ts";
import { useNow } from "../../lib/views/hooks.ts";
import { takesOf } from "../../lib/views/track-facts.ts";
import { usePlayer } from "../player/player-context.tsx";
import { LibraryBar } from "./library-bar.tsx";
import { TrackRow } from "./track-row.tsx";
import { UndoToast } from "./undo-toast.tsx";
import { useLibrary } from "./use-library.ts";
import { useStatusAnnouncement } from "./use-status-announcement.ts";

/** How long a notice (a regenerate went through) stays. */
const NOTICE_MS = 5_000;
/** Rows of the final size, shown instead of an empty list while the first answer is awaited. */
const SKELETON_ROWS = 6;

/**
 * Gives the focus to what `find` answers once it is on the page, when the focus fell to the
 * page meanwhile: Undo leaves with its toast (restored, or its window passed), and a keyboard
 * user would start again from the top. Focus the person moved elsewhere stays there.
 */
function useRefocus(tasks: readonly Task[]): (find: () => HTMLElement | null) => void {
  const [find, setFind] = useState<(() => HTMLElement | null) | null>(null);
  useEffect(() => {
    const target = find?.();
    if (!target) return;
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) target.focus();
    setFind(null);
  }, [find, tasks]);
  return (next) => {
    setFind(() => next);
  };
}

/**
 * The "⋯" of the row with this id, or of the row now at `index` (the last when fewer, the search
 * box when none is left).
 */
const moreOf = (id: string) =>
  document.querySelector<HTMLElement>(
    `li.task[data-task-id="${CSS.escape(id)}"] [data-testid="more"]`,
  );
const moreAt = (index: number) => {
  const all = document.querySelectorAll<HTMLElement>('li.task [data-testid="more"]');
  return (
    all[Math.min(index, all.length - 1)] ??
    document.querySelector<HTMLElement>("input[type=search]")
  );
};

/**
 * The library: the live newest tasks, or a search of them; older pages on request. What is
 * known is shown at once (the stored snapshot) and refreshed quietly: a thin bar says it is
 * being brought up to date, and the list never empties meanwhile.
 */
export function TaskPanel(props: {
  snapshot: Snapshot;
  /** The background is reading the state again (the view just opened). */
  refreshing?: boolean;
  /** The side panel: rows show their waveform inline. */
  wide?: boolean;
  onCompose?: () => void;
}) {
  const now = useNow();
  const library = useLibrary(props.snapshot);
  const [deleted, setDeleted] = useState<Task | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { tasks } = library;
  // Previous and next in the player follow the list as it is shown.
  usePlayer().setQueue(tasks);
  // The snapshot's tasks, not the rows shown: a task that leaves a "Running" filter as it
  // finishes is still heard finishing. Fetched pages and results change only through it.
  const announcement = useStatusAnnouncement(props.snapshot.tasks);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => {
      setNotice(null);
    }, NOTICE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [notice]);
  const refocus = useRefocus(tasks);
  // Where the deleted row was: its neighbour takes the focus when the undo window passes.
  const deletedAt = useRef(0);
  const takes = takesOf([...props.snapshot.tasks, ...tasks]);
  const updating = library.loading || Boolean(props.refreshing);
  const waiting = tasks.length === 0 && updating && !library.searching;

  return (
    <section class="stack library" aria-label={i18n.t("app.tasks")}>
      <LibraryBar query={library.query} onChange={library.setQuery} />
      <div class="updating" data-active={updating ? "" : undefined} aria-hidden="true" />
      {/* Always in the page: a live region added together with its text is often not read. */}
      <p class="visually-hidden" role="status" data-testid="status-announcer">
        {notice ?? announcement}
      </p>
      {tasks.length === 0 && !updating ? (
        <p class="muted empty">
          {library.searching ? i18n.t("library.nothingFound") : i18n.t("task.none")}
        </p>
      ) : waiting ? (
        <ul class="task-list" aria-busy="true" aria-label={i18n.t("library.updating")}>
          {Array.from({ length: SKELETON_ROWS }, (_, i) => (
            <li key={i} class="task skeleton" aria-hidden="true">
              <div class="track">
                <span class="play" />
                <div class="track-main">
                  <span class="bone" />
                  <span class="bone short" />
                </div>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <ul class="task-list" aria-busy={updating}>
          {tasks.map((task) => (
            <TrackRow
              key={task.id}
              task={task}
              now={now}
              take={takes.get(task.id)}
              wide={props.wide}
              refusal={refusalFor(task, props.snapshot.webhookRefusals)}
              onCompose={props.onCompose}
              onNotice={setNotice}
              onDeleted={(deletion) => {
                deletedAt.current = tasks.findIndex((t) => t.id === deletion.task.id);
                library.hide(deletion.task);
                setDeleted(deletion.task);
              }}
            />
          ))}
        </ul>
      )}
      {deleted ? (
        <UndoToast
          task={deleted}
          onRestored={(task) => {
            library.unhide(task);
            setDeleted(null);
            refocus(() => moreOf(task.id));
          }}
          onClose={() => {
            setDeleted(null);
            refocus(() => moreAt(deletedAt.current));
          }}
        />
      ) : notice ? (
        <p class="banner toast small" data-testid="notice" aria-hidden="true">
          {notice}
        </p>
      ) : null}
      {library.cursor ? (
        <button type="button" onClick={library.more} disabled={library.loading}>
          {i18n.t("task.more")}
        </button>
      ) : null}
      {library.problem ? (
        <p class="small" role="alert">
          {library.problem}
        </p>
      ) : null}
    </section>
  );
}
