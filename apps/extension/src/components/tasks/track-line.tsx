import { Fragment } from "preact";
import { timeLine } from "../../lib/shared/format.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { type Refusal, refusalSentence } from "../../lib/shared/refusals.ts";
import { isFinal } from "../../lib/shared/snapshot.ts";
import type { Task, TaskState } from "../../lib/shared/types.ts";
import { statusText } from "../../lib/views/texts.ts";
import { detailLine } from "../../lib/views/track-facts.ts";
import type { Download } from "./use-download.ts";

/** The colour of a task's state (its mark, its line). */
export const TONE: Record<TaskState, string> = {
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

/** One piece of the line under a title: its words and, for tests and styles, what it is. */
interface Part {
  text: string;
  testId?: string;
  class?: string;
}

/** The line under the title of a task that is not a finished track: its state, time and why. */
function stateParts(task: Task, now: number, estimate: string | undefined): Part[] {
  const time: Part = { text: timeLine(task, now, estimate), testId: "task-time" };
  switch (task.status) {
    case "failure":
    case "rejected":
      return [
        time,
        {
          text: i18n.t("task.reason", { reason: task.error ?? i18n.t("task.noReason") }),
          testId: "failure-reason",
        },
      ];
    case "queued":
      return [time, { text: i18n.t("task.queuedNote") }];
    case "unknown":
      return [time, { text: i18n.t("task.unknownNote") }];
    case "cancelled":
      return [time];
    default:
      return [{ text: statusText(task.status), class: "state-word" }, time];
  }
}

/** What the line says of a row (the row's props it reads). */
export interface LineFacts {
  task: Task;
  now: number;
  take?: { take: number; of: number } | undefined;
  refusal?: Refusal | undefined;
}

/** The line's pieces: a download's progress or outcome, a refusal, else what the task is. */
export function lineParts(
  props: LineFacts,
  download: Download,
  estimate: string | undefined,
): { parts: Part[]; tone: string } {
  const { task, now } = props;
  if (download.shown.kind === "busy")
    return { parts: [{ text: download.progressText, testId: "download-progress" }], tone: "" };
  if (download.shown.kind === "done")
    return { parts: [{ text: download.shown.text, testId: "download-state" }], tone: "" };
  if (props.refusal && !isFinal(task))
    return {
      parts: [{ text: refusalSentence(props.refusal), testId: "callback-refused" }],
      tone: "warn",
    };
  if (task.status === "success")
    return { parts: [{ text: detailLine(task, props.take, now), testId: "track-line" }], tone: "" };
  return { parts: stateParts(task, now, estimate), tone: TONE[task.status] };
}

/** The line under the title, with the whole of it in `title` for when it is cut. */
export function TrackLine(props: { parts: Part[]; tone: string; live: boolean }) {
  const text = props.parts.map((part) => part.text).join(" · ");
  return (
    <span
      class={`track-line small ${props.tone}`}
      title={text}
      role={props.live ? "status" : undefined}
    >
      {props.parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? " · " : null}
          <span data-testid={part.testId} class={part.class}>
            {part.text}
          </span>
        </Fragment>
      ))}
    </span>
  );
}
