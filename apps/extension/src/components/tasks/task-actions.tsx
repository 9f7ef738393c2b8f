import { useState } from "preact/hooks";
import { taskTitle } from "../../lib/shared/format.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { Task, TaskDeletion } from "../../lib/shared/types.ts";
import { ConfirmButton } from "../confirm-button.tsx";

/**
 * What a person does with a finished track in the library: favourite it, rename it (the title
 * editor, opened through `onRename`), delete it (asked first; undone from the list's toast).
 */
export function TaskActions(props: {
  task: Task;
  onRename: () => void;
  detailsOpen: boolean;
  onToggleDetails: () => void;
  sharing: boolean;
  onToggleSharing: () => void;
  onDeleted?: ((deletion: TaskDeletion) => void) | undefined;
}) {
  const { task } = props;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Every card has these buttons: the title tells a screen reader's list of them apart.
  const title = taskTitle(task);

  const run = <T,>(request: Promise<T>, then?: (value: T) => void) => {
    setBusy(true);
    setProblem(null);
    request
      .then((value) => {
        then?.(value);
      })
      .catch((error: unknown) => {
        setProblem(errorText(error));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  return (
    <div class="stack">
      <div class="row task-actions">
        <button
          type="button"
          class="star"
          aria-pressed={task.favourite}
          aria-label={
            task.favourite
              ? i18n.t("task.unfavouriteTrack", { title })
              : i18n.t("task.favouriteTrack", { title })
          }
          title={task.favourite ? i18n.t("task.unfavourite") : i18n.t("task.favourite")}
          disabled={busy}
          onClick={() => {
            run(send("tasks/update", { id: task.id, patch: { favourite: !task.favourite } }));
          }}
        >
          {task.favourite ? "★" : "☆"}
        </button>
        <button
          type="button"
          data-action="rename"
          aria-label={i18n.t("task.renameTrack", { title })}
          disabled={busy}
          onClick={props.onRename}
        >
          {i18n.t("task.rename")}
        </button>
        <button
          type="button"
          aria-expanded={props.detailsOpen}
          aria-label={
            props.detailsOpen
              ? i18n.t("details.hideTrack", { title })
              : i18n.t("details.showTrack", { title })
          }
          onClick={props.onToggleDetails}
        >
          {props.detailsOpen ? i18n.t("details.hide") : i18n.t("details.show")}
        </button>
        {task.status === "success" ? (
          <button
            type="button"
            aria-expanded={props.sharing}
            aria-label={
              props.sharing
                ? i18n.t("share.closeTrack", { title })
                : i18n.t("share.openTrack", { title })
            }
            onClick={props.onToggleSharing}
          >
            {props.sharing ? i18n.t("share.close") : i18n.t("share.open")}
          </button>
        ) : null}
        <ConfirmButton
          label={busy ? i18n.t("task.deleting") : i18n.t("task.delete")}
          ariaLabel={
            busy ? i18n.t("task.deletingTrack", { title }) : i18n.t("task.deleteTrack", { title })
          }
          question={i18n.t("task.confirmDelete", { title })}
          confirmLabel={i18n.t("task.confirmDeleteYes")}
          keepLabel={i18n.t("task.keep")}
          disabled={busy}
          onConfirm={() => {
            run(send("tasks/delete", { id: task.id }), props.onDeleted);
          }}
        />
      </div>
      {problem ? (
        <p class="small" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
