import { useEffect, useRef, useState } from "preact/hooks";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { Task } from "../../lib/shared/types.ts";

/** How long the toast offers to undo: the backend's window (10 s), counted from the answer. */
export const UNDO_MS = 10_000;

/**
 * "Track deleted · Undo" after a delete, for the backend's undo window; Undo restores the task
 * (it comes back to the list through the snapshot). Gone when the window passes.
 */
export function UndoToast(props: {
  task: Task;
  onRestored: (task: Task) => void;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const undoButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // The deleted card took the keyboard focus with it: Undo gets it, so that it is in reach
    // within its window. Focus the person moved elsewhere meanwhile stays where it is.
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) undoButton.current?.focus();
    const timer = setTimeout(props.onClose, UNDO_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [props.task.id]);

  const undo = () => {
    setBusy(true);
    setProblem(null);
    send("tasks/restore", { id: props.task.id })
      .then(props.onRestored)
      .catch((error: unknown) => {
        setProblem(errorText(error));
        setBusy(false);
      });
  };

  return (
    <div class="banner toast row spread" role="status" data-testid="undo-toast">
      <span>{problem ?? i18n.t("task.deleted")}</span>
      {problem ? null : (
        <button type="button" ref={undoButton} onClick={undo} disabled={busy}>
          {i18n.t("task.undo")}
        </button>
      )}
    </div>
  );
}
