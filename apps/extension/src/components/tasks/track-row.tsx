import { useEffect, useRef, useState } from "preact/hooks";
import { clock, streamable, taskTitle } from "../../lib/shared/format.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import type { Refusal } from "../../lib/shared/refusals.ts";
import type { Task, TaskDeletion, TaskState } from "../../lib/shared/types.ts";
import { errorText, statusText } from "../../lib/views/texts.ts";
import { trackSeconds } from "../../lib/views/track-facts.ts";
import { useSeen, useWaveform } from "../../lib/views/use-waveform.ts";
import { Icon } from "../icons.tsx";
import { usePlayer } from "../player/player-context.tsx";
import { WaveformBar } from "../player/waveform.tsx";
import { TitleEditor } from "./title-editor.tsx";
import { TrackSheets, type SheetKind } from "./track-sheets.tsx";
import { menuItems } from "./track-menu.ts";
import { TrackEnd } from "./track-end.tsx";
import { TONE, TrackLine, lineParts } from "./track-line.tsx";
import { type Download, useDownload } from "./use-download.ts";
import { useEstimate } from "./use-estimate.ts";

/** How long a row has been on screen before its media link is asked for (a scroll passes by). */
const PREPARE_DELAY_MS = 150;

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

/** The row's start: Play (or Pause) for a finished track, the task's state for any other. */
function TrackLead(props: { task: Task; title: string }) {
  const { task, title } = props;
  const player = usePlayer();
  if (task.status !== "success")
    return (
      <span
        class={`state-mark ${TONE[task.status]}`}
        data-testid="state-mark"
        title={statusText(task.status)}
      >
        <span class="visually-hidden">{statusText(task.status)}</span>
      </span>
    );
  const current = player.task?.id === task.id;
  const playing = current && player.playing;
  return (
    <button
      type="button"
      class="play"
      data-testid="play"
      // No aria-pressed: the name says what a press does (Play or Pause), as the player's own.
      aria-label={
        playing ? i18n.t("player.pauseTrack", { title }) : i18n.t("player.playTrack", { title })
      }
      title={playing ? i18n.t("player.pause") : i18n.t("player.play")}
      disabled={current && player.status === "loading"}
      onClick={() => {
        player.toggle(task);
      }}
    >
      <Icon name={playing ? "pause" : "play"} />
    </button>
  );
}

/** Where the playhead is, in the player's words ("0:06 / 0:30"), read instead of a number. */
function positionText(position: number, seconds: number | null): string {
  return seconds === null ? "" : `${clock(position * seconds * 1000)} / ${clock(seconds * 1000)}`;
}

/** A download that failed, with what can be done: try again (the same format). */
function DownloadProblem(props: { download: Download; title: string }) {
  const { download } = props;
  if (download.shown.kind !== "problem") return null;
  const { format, text } = download.shown;
  return (
    <div class="banner bad small" role="alert" data-testid="download-problem">
      <p>{text}</p>
      <button
        type="button"
        aria-label={i18n.t("download.retryTrack", { title: props.title })}
        onClick={() => {
          download.start(format);
        }}
      >
        {i18n.t("download.retry")}
      </button>
    </div>
  );
}

/** A visible archived track gets its media link now: Play then starts without asking for it. */
function usePreparedLink(task: Task, seen: boolean) {
  const player = usePlayer();
  const archived = streamable(task);
  useEffect(() => {
    if (!seen || !archived) return;
    const timer = setTimeout(() => {
      player.prepare(task);
    }, PREPARE_DELAY_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [seen, archived, task.id]);
}

/** A request from the row (cancel, favourite, regenerate): busy meanwhile, its failure said. */
function useRowAction(task: Task) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ text: string; status: TaskState } | null>(null);
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
  const fail = (text: string) => {
    setProblem({ text, status: task.status });
  };
  // Said about the task as it stood: once it has moved on (ended, say), the message is stale.
  const shown = problem?.status === task.status ? problem.text : null;
  return { busy, act, fail, problem: shown };
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
  const [linkFailed, setLinkFailed] = useState(false);
  const action = useRowAction(task);
  const download = useDownload(task, () => {
    setLinkFailed(true);
  });
  const estimate = useEstimate(task, now);
  usePreparedLink(task, seen);

  const current = player.task?.id === task.id;
  const seconds = trackSeconds(task, waveform.waveform?.duration ?? null);
  const line = lineParts(props, download, estimate);

  return (
    <li
      class={`task${current ? " current" : ""}`}
      ref={row}
      data-task-id={task.id}
      data-status={task.status}
    >
      <div class="track">
        <TrackLead task={task} title={title} />
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
          <TrackLine
            parts={line.parts}
            tone={line.tone}
            live={download.shown.kind === "busy" || download.shown.kind === "done"}
          />
        </div>
        <TrackEnd
          task={task}
          title={title}
          seconds={seconds}
          busy={action.busy}
          more={more}
          onAct={action.act}
          menu={() =>
            menuItems({
              task,
              download,
              onRename: () => {
                setRenaming(true);
              },
              onSheet: setSheet,
              onRegenerate: () => {
                action.act(send("tasks/regenerate", { id: task.id }), () =>
                  props.onNotice?.(i18n.t("details.regenerated")),
                );
              },
              onCompose: props.onCompose,
              onProblem: action.fail,
            })
          }
        />
      </div>
      {props.wide && task.status === "success" ? (
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
          valueText={positionText(current ? player.position : 0, seconds)}
        />
      ) : null}
      <DownloadProblem download={download} title={title} />
      {action.problem ? (
        <p class="small row-problem" role="alert">
          {action.problem}
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
