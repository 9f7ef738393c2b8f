import { i18n } from "../../lib/i18n.ts";
import { useState } from "preact/hooks";
import { useNow } from "../../lib/hooks.ts";
import { send } from "../../lib/messages.ts";
import { refusalFor } from "../../lib/refusals.ts";
import { type Snapshot, quotaFull } from "../../lib/snapshot.ts";
import { errorText } from "../../lib/texts.ts";
import type { Task } from "../../lib/types.ts";
import { TaskItem } from "./task-item.tsx";
import { UndoToast } from "./undo-toast.tsx";

/** The live task list: the snapshot's newest tasks, older pages on request. */
export function TaskPanel(props: { snapshot: Snapshot }) {
  const now = useNow();
  const [older, setOlder] = useState<Task[]>([]);
  const [cursor, setCursor] = useState<string | null>(props.snapshot.nextCursor);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleted, setDeleted] = useState<Task | null>(null);
  // Deleted here: an older page's copy is hidden too (the snapshot drops its own by itself).
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const known = new Set(props.snapshot.tasks.map((task) => task.id));
  const tasks = [
    ...props.snapshot.tasks,
    ...older.filter((task) => !known.has(task.id) && !hidden.has(task.id)),
  ];

  const show = (id: string, visible: boolean) => {
    setHidden((ids) => {
      const next = new Set(ids);
      if (visible) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  const quota = props.snapshot.quota;

  const more = () => {
    if (!cursor) return;
    send("tasks/more", { cursor })
      .then((page) => {
        setOlder((list) => [...list, ...page.tasks]);
        setCursor(page.next_cursor);
      })
      .catch((error: unknown) => {
        setProblem(errorText(error));
      });
  };

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
      {tasks.length === 0 ? (
        <p class="muted">{i18n.t("task.none")}</p>
      ) : (
        <ul class="task-list">
          {tasks.map((task) => (
            <TaskItem
              key={task.id}
              task={task}
              now={now}
              refusal={refusalFor(task, props.snapshot.webhookRefusals)}
              onDeleted={(deletion) => {
                show(deletion.task.id, false);
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
            show(task.id, true);
            setOlder((list) => list.map((known) => (known.id === task.id ? task : known)));
            setDeleted(null);
          }}
          onClose={() => {
            setDeleted(null);
          }}
        />
      ) : null}
      {cursor ? (
        <button type="button" onClick={more}>
          {i18n.t("task.more")}
        </button>
      ) : null}
      {problem ? (
        <p class="small" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
