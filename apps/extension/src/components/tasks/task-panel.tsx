import { i18n } from "../../lib/shared/i18n.ts";
import { useState } from "preact/hooks";
import { useNow } from "../../lib/views/hooks.ts";
import { refusalFor } from "../../lib/shared/refusals.ts";
import { type Snapshot, quotaFull } from "../../lib/shared/snapshot.ts";
import type { Task } from "../../lib/shared/types.ts";
import { LibraryBar } from "./library-bar.tsx";
import { TaskItem } from "./task-item.tsx";
import { UndoToast } from "./undo-toast.tsx";
import { useLibrary } from "./use-library.ts";
import { useStatusAnnouncement } from "./use-status-announcement.ts";

/** The library: the live newest tasks, or a search of them; older pages on request. */
export function TaskPanel(props: { snapshot: Snapshot; onCompose?: () => void }) {
  const now = useNow();
  const library = useLibrary(props.snapshot);
  const [deleted, setDeleted] = useState<Task | null>(null);
  const { tasks } = library;
  // The snapshot's tasks, not the rows shown: a task that leaves a "Running" filter as it
  // finishes is still heard finishing. Fetched pages and results change only through it.
  const announcement = useStatusAnnouncement(props.snapshot.tasks);
  const quota = props.snapshot.quota;

  return (
    <section class="stack" aria-label={i18n.t("app.tasks")}>
      {quota ? (
        <p class="small muted row">
          {quota.available !== null && quota.max_concurrency !== null ? (
            <span>
              {i18n.t("state.quota", { available: quota.available, max: quota.max_concurrency })}
            </span>
          ) : null}
          {quota.queued > 0 ? (
            <span>· {i18n.t("state.queuedCount", { count: quota.queued })}</span>
          ) : null}
        </p>
      ) : null}
      {quota && quotaFull(quota) ? (
        <p class="banner warn" role="status">
          {i18n.t("state.quotaFull", { max: quota.max_concurrency ?? "?" })}
        </p>
      ) : null}
      <LibraryBar query={library.query} onChange={library.setQuery} />
      {/* Always in the page: a live region added together with its text is often not read. */}
      <p class="visually-hidden" role="status" data-testid="status-announcer">
        {announcement}
      </p>
      {tasks.length === 0 && !library.loading ? (
        <p class="muted">
          {library.searching ? i18n.t("library.nothingFound") : i18n.t("task.none")}
        </p>
      ) : (
        <ul class="task-list" aria-busy={library.loading}>
          {tasks.map((task) => (
            <TaskItem
              key={task.id}
              task={task}
              now={now}
              refusal={refusalFor(task, props.snapshot.webhookRefusals)}
              onCompose={props.onCompose}
              onDeleted={(deletion) => {
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
          }}
          onClose={() => {
            setDeleted(null);
          }}
        />
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
