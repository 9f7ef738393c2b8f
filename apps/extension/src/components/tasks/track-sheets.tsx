import { useState } from "preact/hooks";
import { taskTitle } from "../../lib/shared/format.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import type { Task, TaskDeletion } from "../../lib/shared/types.ts";
import { errorText } from "../../lib/views/texts.ts";
import { Sheet } from "../sheet.tsx";
import { SharePanel } from "./share-panel.tsx";
import { TaskDetailsView } from "./task-details.tsx";

export type SheetKind = "details" | "share" | "delete";

/** "Delete “…”?" with its two answers; the list offers Undo once it went through. */
function DeleteQuestion(props: {
  task: Task;
  onDeleted: (deletion: TaskDeletion) => void;
  onKeep: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const title = taskTitle(props.task);
  return (
    <div class="stack confirm-delete">
      <p>{i18n.t("task.confirmDelete", { title })}</p>
      <div class="row end">
        <button type="button" onClick={props.onKeep}>
          {i18n.t("task.keep")}
        </button>
        <button
          type="button"
          class="danger"
          data-testid="confirm-delete"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            setProblem(null);
            send("tasks/delete", { id: props.task.id })
              .then(props.onDeleted)
              .catch((error: unknown) => {
                setProblem(errorText(error));
                setBusy(false);
              });
          }}
        >
          {busy ? i18n.t("task.deleting") : i18n.t("task.confirmDeleteYes")}
        </button>
      </div>
      {problem ? (
        <p class="small" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/** The sheet a track's menu opened: its details, sharing it, or the question before a delete. */
export function TrackSheets(props: {
  kind: SheetKind;
  task: Task;
  take?: { take: number; of: number } | undefined;
  now: number;
  linkFailed: boolean;
  returnTo: { current: HTMLElement | null };
  onClose: () => void;
  onDeleted: (deletion: TaskDeletion) => void;
  onCompose?: (() => void) | undefined;
  onNotice?: ((text: string) => void) | undefined;
}) {
  const title = taskTitle(props.task);
  const heading =
    props.kind === "details"
      ? i18n.t("details.title", { title })
      : props.kind === "share"
        ? i18n.t("share.title", { title })
        : i18n.t("task.deleteTitle");
  return (
    <Sheet
      title={heading}
      onClose={props.onClose}
      returnTo={props.returnTo}
      testId={`sheet-${props.kind}`}
    >
      {props.kind === "details" ? (
        <TaskDetailsView
          task={props.task}
          take={props.take}
          now={props.now}
          linkFailed={props.linkFailed}
          onCompose={() => {
            props.onClose();
            props.onCompose?.();
          }}
          onRegenerated={() => {
            props.onClose();
            props.onNotice?.(i18n.t("details.regenerated"));
          }}
        />
      ) : props.kind === "share" ? (
        <SharePanel task={props.task} />
      ) : (
        <DeleteQuestion task={props.task} onDeleted={props.onDeleted} onKeep={props.onClose} />
      )}
    </Sheet>
  );
}
