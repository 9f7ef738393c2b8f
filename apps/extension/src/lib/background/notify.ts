import { i18n } from "../shared/i18n.ts";
import { browser } from "wxt/browser";
import { taskTitle } from "../shared/format.ts";
import type { Task } from "../shared/types.ts";

export const NOTIFICATION_PREFIX = "overture-task:";

function body(task: Task): string {
  switch (task.status) {
    case "success":
      return i18n.t("notify.success");
    case "failure":
      return i18n.t("notify.failure", [task.error ?? i18n.t("task.noReason")]);
    case "cancelled":
      return i18n.t("notify.cancelled");
    case "rejected":
      return i18n.t("notify.rejected", [task.error ?? i18n.t("task.noReason")]);
    default:
      return i18n.t("notify.unknown");
  }
}

/** One notification per finished task; its id names the task so a click can open it. */
export async function notifyFinished(task: Task): Promise<void> {
  await browser.notifications.create(`${NOTIFICATION_PREFIX}${task.id}`, {
    type: "basic",
    iconUrl: browser.runtime.getURL("/icon/128.png"),
    title: taskTitle(task),
    message: body(task),
  });
}
