import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useRef, useState } from "preact/hooks";
import { taskTitle, timeLine } from "../../lib/shared/format.ts";
import { send } from "../../lib/shared/messages.ts";
import { type Refusal, refusalSentence } from "../../lib/shared/refusals.ts";
import { isCancellable, isFinal } from "../../lib/shared/snapshot.ts";
import { errorText, statusText } from "../../lib/views/texts.ts";
import type { Task, TaskDeletion, TaskState } from "../../lib/shared/types.ts";
import { ResultPlayer } from "./result-player.tsx";
import { SharePanel } from "./share-panel.tsx";
import { TaskActions } from "./task-actions.tsx";
import { TaskDetailsView } from "./task-details.tsx";
import { TitleEditor } from "./title-editor.tsx";
import { useEstimate } from "./use-estimate.ts";

const TONE: Record<TaskState, string> = {
  queued: "plain",
  submitting: "busy",
  waiting: "busy",
  in_progress: "busy",
  success: "ok",
  failure: "bad",
  rejected: "bad",
  cancelled: "plain",
  unknown: "warn",
};

export function TaskItem(props: {
  task: Task;
  now: number;
  refusal?: Refusal | undefined;
  /** After a delete went through: the list offers to undo it. */
  onDeleted?: ((deletion: TaskDeletion) => void) | undefined;
  /** After "Use these settings" filled the compose form: show it. */
  onCompose?: (() => void) | undefined;
}) {
  const { task, now } = props;
  const [cancelling, setCancelling] = useState(false);
  // Said about the task as it stood: once it has moved on (ended, say), the message is stale.
  const [problem, setProblem] = useState<{ text: string; status: TaskState } | null>(null);
  const [renaming, setRenaming] = useState(false);
  const card = useRef<HTMLLIElement>(null);
  const wasRenaming = useRef(false);
  useEffect(() => {
    // The title editor took the keyboard focus with it: back to Rename, where the person was.
    if (wasRenaming.current && !renaming) {
      const active = document.activeElement;
      if (!active || active === document.body || !active.isConnected)
        card.current?.querySelector<HTMLButtonElement>('[data-action="rename"]')?.focus();
    }
    wasRenaming.current = renaming;
  }, [renaming]);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [sharing, setSharing] = useState(false);
  const estimate = useEstimate(task, now);
  const reason = task.error ?? i18n.t("task.noReason");

  const cancel = () => {
    setCancelling(true);
    setProblem(null);
    send("tasks/cancel", { id: task.id })
      .catch((error: unknown) => {
        setProblem({ text: errorText(error), status: task.status });
      })
      .finally(() => {
        setCancelling(false);
      });
  };

  return (
    <li class="card task" ref={card} data-task-id={task.id} data-status={task.status}>
      <div class="row spread">
        {renaming ? (
          <TitleEditor
            task={task}
            initial={taskTitle(task)}
            onDone={() => {
              setRenaming(false);
            }}
          />
        ) : (
          <span class="title">{taskTitle(task)}</span>
        )}
        {/* Not a live region: the list announces status changes, once (task-panel.tsx). */}
        <span class={`pill ${TONE[task.status]}`}>{statusText(task.status)}</span>
      </div>
      <p class="small muted" data-testid="task-time">
        {timeLine(task, now, estimate)}
      </p>
      {task.status === "queued" ? <p class="small">{i18n.t("task.queuedNote")}</p> : null}
      {task.status === "unknown" ? <p class="small">{i18n.t("task.unknownNote")}</p> : null}
      {task.status === "failure" || task.status === "rejected" ? (
        <p class="small" data-testid="failure-reason">
          {i18n.t("task.reason", { reason })}
        </p>
      ) : null}
      {props.refusal ? (
        <p class="small banner warn" data-testid="callback-refused">
          {refusalSentence(props.refusal)}
        </p>
      ) : null}
      {task.status === "success" ? <ResultPlayer task={task} now={now} /> : null}
      {isFinal(task) ? (
        <TaskActions
          task={task}
          onRename={() => {
            setRenaming(true);
          }}
          onDeleted={props.onDeleted}
          sharing={sharing}
          onToggleSharing={() => {
            setSharing((open) => !open);
          }}
          detailsOpen={detailsOpen}
          onToggleDetails={() => {
            setDetailsOpen((open) => !open);
          }}
        />
      ) : null}
      {sharing && task.status === "success" ? <SharePanel task={task} /> : null}
      {detailsOpen && isFinal(task) ? (
        <TaskDetailsView task={task} onCompose={props.onCompose} />
      ) : null}
      {isCancellable(task) ? (
        <div class="row">
          <button
            type="button"
            class="danger"
            aria-label={
              cancelling
                ? i18n.t("task.cancellingTrack", { title: taskTitle(task) })
                : i18n.t("task.cancelTrack", { title: taskTitle(task) })
            }
            onClick={cancel}
            disabled={cancelling}
          >
            {cancelling ? i18n.t("task.cancelling") : i18n.t("task.cancel")}
          </button>
        </div>
      ) : null}
      {problem?.status === task.status ? (
        <p class="small" role="alert">
          {problem.text}
        </p>
      ) : null}
    </li>
  );
}
