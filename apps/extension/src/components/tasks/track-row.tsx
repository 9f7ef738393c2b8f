import { Fragment } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { streamable, taskTitle, timeLine } from "../../lib/shared/format.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import { type Refusal, refusalSentence } from "../../lib/shared/refusals.ts";
import { isCancellable, isFinal } from "../../lib/shared/snapshot.ts";
import type { Task, TaskDeletion, TaskState } from "../../lib/shared/types.ts";
import { errorText, statusText } from "../../lib/views/texts.ts";
import { detailLine, lengthText, trackSeconds } from "../../lib/views/track-facts.ts";
import { useSeen, useWaveform } from "../../lib/views/use-waveform.ts";
import { Icon } from "../icons.tsx";
import { MenuButton } from "../menu-button.tsx";
import { usePlayer } from "../player/player-context.tsx";
import { WaveformBar } from "../player/waveform.tsx";
import { TitleEditor } from "./title-editor.tsx";
import { TrackSheets, type SheetKind } from "./track-sheets.tsx";
import { menuItems } from "./track-menu.ts";
import { useDownload } from "./use-download.ts";
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

export interface TrackRowProps {
  task: Task;
  now: number;
  /** Which take of its song it is, among the known tracks. */
  take?: { take: number; of: number } | undefined;
  refusal?: Refusal | undefined;
  /** The side panel: the waveform inline, under the row. */
  wide?: boolean;
  onDeleted?: ((deletion: TaskDeletion) => void) | undefined;
  /** After "Use these settings" filled the compose form: show it. */
  onCompose?: (() => void) | undefined;
  /** A short word for the list's status line (a regenerate went through). */
  onNotice?: ((text: string) => void) | undefined;
}

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

/**
 * One track of the library as one row of at most two lines: play (or the task's state), the
 * title and one line of detail, its length, favourite, and "⋯" for everything else. A task
 * still running has Cancel instead. The side panel adds the waveform under the row; the popup
 * keeps to the row.
 */
export function TrackRow(props: TrackRowProps) {
  const { task, now } = props;
  const title = taskTitle(task);
  const player = usePlayer();
  const row = useRef<HTMLLIElement>(null);
  const more = useRef<HTMLElement | null>(null);
  const seen = useSeen(row);
  const archived = streamable(task);
  const waveform = useWaveform(archived ? task.id : null, seen);
  const [renaming, setRenaming] = useState(false);
  const [sheet, setSheet] = useState<SheetKind | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ text: string; status: TaskState } | null>(null);
  const [linkFailed, setLinkFailed] = useState(false);
  const download = useDownload(task, () => {
    setLinkFailed(true);
  });
  const estimate = useEstimate(task, now);

  // A visible archived track gets its media link now: Play then starts without asking for it.
  useEffect(() => {
    if (!seen || !archived) return;
    const timer = setTimeout(() => {
      player.prepare(task);
    }, 150);
    return () => {
      clearTimeout(timer);
    };
  }, [seen, archived, task.id]);

  const act = <T,>(request: Promise<T>, then?: (value: T) => void) => {
    setBusy(true);
    setProblem(null);
    request
      .then((value) => then?.(value))
      .catch((error: unknown) => {
        setProblem({ text: errorText(error), status: task.status });
      })
      .finally(() => {
        setBusy(false);
      });
  };

  const success = task.status === "success";
  const current = player.task?.id === task.id;
  const playing = current && player.playing;
  const seconds = trackSeconds(task, waveform.waveform?.duration ?? null);
  const parts: Part[] =
    download.shown.kind === "busy"
      ? [{ text: download.progressText, testId: "download-progress" }]
      : download.shown.kind === "done"
        ? [{ text: download.shown.text, testId: "download-state" }]
        : props.refusal && !isFinal(task)
          ? [{ text: refusalSentence(props.refusal), testId: "callback-refused" }]
          : success
            ? [{ text: detailLine(task, props.take, now), testId: "track-line" }]
            : stateParts(task, now, estimate);
  const lineText = parts.map((part) => part.text).join(" · ");
  const tone = props.refusal && !isFinal(task) ? "warn" : success ? "" : TONE[task.status];

  return (
    <li
      class={`task${current ? " current" : ""}`}
      ref={row}
      data-task-id={task.id}
      data-status={task.status}
    >
      <div class="track">
        {success ? (
          <button
            type="button"
            class="play"
            data-testid="play"
            aria-pressed={playing}
            aria-label={
              playing
                ? i18n.t("player.pauseTrack", { title })
                : i18n.t("player.playTrack", { title })
            }
            title={playing ? i18n.t("player.pause") : i18n.t("player.play")}
            disabled={current && player.status === "loading"}
            onClick={() => {
              player.toggle(task);
            }}
          >
            <Icon name={playing ? "pause" : "play"} />
          </button>
        ) : (
          <span
            class={`state-mark ${TONE[task.status]}`}
            data-testid="state-mark"
            title={statusText(task.status)}
          >
            <span class="visually-hidden">{statusText(task.status)}</span>
          </span>
        )}
        <div class="track-main">
          {renaming ? (
            <TitleEditor
              task={task}
              initial={title}
              onDone={() => {
                setRenaming(false);
                setTimeout(() => more.current?.focus(), 0);
              }}
            />
          ) : (
            <span class="title" title={title}>
              {title}
            </span>
          )}
          <span
            class={`track-line small ${tone}`}
            title={lineText}
            role={
              download.shown.kind === "idle" || download.shown.kind === "problem"
                ? undefined
                : "status"
            }
          >
            {parts.map((part, index) => (
              <Fragment key={index}>
                {index > 0 ? " · " : null}
                <span data-testid={part.testId} class={part.class}>
                  {part.text}
                </span>
              </Fragment>
            ))}
          </span>
        </div>
        {isCancellable(task) ? (
          <button
            type="button"
            class="danger compact"
            aria-label={
              busy
                ? i18n.t("task.cancellingTrack", { title })
                : i18n.t("task.cancelTrack", { title })
            }
            disabled={busy}
            onClick={() => {
              act(send("tasks/cancel", { id: task.id }));
            }}
          >
            {busy ? i18n.t("task.cancelling") : i18n.t("task.cancel")}
          </button>
        ) : null}
        {isFinal(task) ? (
          <>
            <span class="length" data-testid="length">
              {success ? lengthText(seconds) : ""}
            </span>
            <button
              type="button"
              class="icon star"
              aria-pressed={task.favourite}
              aria-label={
                task.favourite
                  ? i18n.t("task.unfavouriteTrack", { title })
                  : i18n.t("task.favouriteTrack", { title })
              }
              title={task.favourite ? i18n.t("task.unfavourite") : i18n.t("task.favourite")}
              disabled={busy}
              onClick={() => {
                act(send("tasks/update", { id: task.id, patch: { favourite: !task.favourite } }));
              }}
            >
              <span aria-hidden="true">{task.favourite ? "★" : "☆"}</span>
            </button>
            <MenuButton
              label={i18n.t("track.moreTrack", { title })}
              testId="more"
              buttonRef={more}
              items={menuItems({
                task,
                download,
                onRename: () => {
                  setRenaming(true);
                },
                onSheet: setSheet,
                onRegenerate: () => {
                  act(send("tasks/regenerate", { id: task.id }), () =>
                    props.onNotice?.(i18n.t("details.regenerated")),
                  );
                },
                onCompose: props.onCompose,
                onProblem: (text) => {
                  setProblem({ text, status: task.status });
                },
              })}
            />
          </>
        ) : null}
      </div>
      {props.wide && success ? (
        <WaveformBar
          bars={waveform.waveform?.bars ?? null}
          state={archived ? waveform.state : "pending"}
          position={current ? player.position : null}
          duration={seconds}
          disabled={!archived}
          onSeek={(fraction) => {
            player.seek(task, fraction);
          }}
          testId="card-waveform"
          label={i18n.t("result.seekTrack", { title })}
        />
      ) : null}
      {download.shown.kind === "problem" ? (
        <div class="banner bad small" role="alert" data-testid="download-problem">
          <p>{download.shown.text}</p>
          <button
            type="button"
            aria-label={i18n.t("download.retryTrack", { title })}
            onClick={() => {
              if (download.shown.kind === "problem") download.start(download.shown.format);
            }}
          >
            {i18n.t("download.retry")}
          </button>
        </div>
      ) : null}
      {problem?.status === task.status ? (
        <p class="small row-problem" role="alert">
          {problem.text}
        </p>
      ) : null}
      {sheet ? (
        <TrackSheets
          kind={sheet}
          task={task}
          take={props.take}
          now={now}
          linkFailed={linkFailed}
          returnTo={more}
          onClose={() => {
            setSheet(null);
          }}
          onDeleted={(deletion) => {
            setSheet(null);
            props.onDeleted?.(deletion);
          }}
          onCompose={props.onCompose}
          onNotice={props.onNotice}
        />
      ) : null}
    </li>
  );
}
