import { useEffect, useRef, useState } from "preact/hooks";
import { taskTitle } from "../../lib/shared/format.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { listOf, statusText } from "../../lib/views/texts.ts";
import type { Task, TaskState } from "../../lib/shared/types.ts";

/**
 * What the list's one live region says: the tasks whose status changed since the last render,
 * "<title>: <status>" each. One region for the whole list rather than one per card: per card,
 * a page of cards appearing reads out every status at once. Tasks seen for the first time (the
 * first render, a task just submitted) did not change, so they say nothing.
 */
export function useStatusAnnouncement(tasks: readonly Task[]): string {
  const shown = useRef<ReadonlyMap<string, TaskState> | null>(null);
  const [message, setMessage] = useState("");
  useEffect(() => {
    const before = shown.current;
    shown.current = new Map(tasks.map((task) => [task.id, task.status]));
    if (!before) return;
    const changed = tasks.filter((task) => {
      const was = before.get(task.id);
      return was !== undefined && was !== task.status;
    });
    if (changed.length === 0) return;
    setMessage(
      listOf(
        changed.map((task) =>
          i18n.t("task.statusChanged", { title: taskTitle(task), status: statusText(task.status) }),
        ),
      ),
    );
  }, [tasks]);
  return message;
}
