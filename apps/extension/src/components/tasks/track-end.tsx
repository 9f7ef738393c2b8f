import type { MenuItem } from "../menu-button.tsx";
import { MenuButton } from "../menu-button.tsx";
import { isCancellable, isFinal } from "../../lib/shared/snapshot.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import type { Task } from "../../lib/shared/types.ts";
import { lengthText } from "../../lib/views/track-facts.ts";

/**
 * The row's end: Cancel while the task runs; once it ended, its length, favourite and the "⋯"
 * menu of everything else (`menu` builds the items when the row renders).
 */
export function TrackEnd(props: {
  task: Task;
  title: string;
  seconds: number | null;
  busy: boolean;
  more: { current: HTMLElement | null };
  onAct: (request: Promise<unknown>) => void;
  menu: () => MenuItem[];
}) {
  const { task, title, busy } = props;
  if (isCancellable(task))
    return (
      <button
        type="button"
        class="danger compact"
        aria-label={
          busy ? i18n.t("task.cancellingTrack", { title }) : i18n.t("task.cancelTrack", { title })
        }
        disabled={busy}
        onClick={() => {
          props.onAct(send("tasks/cancel", { id: task.id }));
        }}
      >
        {busy ? i18n.t("task.cancelling") : i18n.t("task.cancel")}
      </button>
    );
  if (!isFinal(task)) return null;
  return (
    <>
      <span class="length" data-testid="length">
        {task.status === "success" ? lengthText(props.seconds) : ""}
      </span>
      <button
        type="button"
        class="icon star"
        // A toggle keeps one name; "pressed" says whether it is a favourite (a name that
        // changed with it would read "Remove from favourites …, pressed").
        aria-pressed={task.favourite}
        aria-label={i18n.t("task.favouriteTrack", { title })}
        title={task.favourite ? i18n.t("task.unfavourite") : i18n.t("task.favourite")}
        disabled={busy}
        onClick={() => {
          props.onAct(send("tasks/update", { id: task.id, patch: { favourite: !task.favourite } }));
        }}
      >
        <span aria-hidden="true">{task.favourite ? "★" : "☆"}</span>
      </button>
      <MenuButton
        label={i18n.t("track.moreTrack", { title })}
        testId="more"
        buttonRef={props.more}
        items={props.menu()}
      />
    </>
  );
}
