import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import type { DownloadProgress, DownloadResult } from "../../lib/shared/download-result.ts";
import { send } from "../../lib/shared/messages.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { AudioFormat, Task } from "../../lib/shared/types.ts";
import { streamable, taskTitle } from "../../lib/shared/format.ts";

/** How often a running download's progress is asked for. */
const PROGRESS_EVERY_MS = 500;

type Shown =
  | { kind: "idle" }
  | { kind: "busy"; format: AudioFormat }
  | { kind: "done"; text: string }
  | { kind: "problem"; text: string; format: AudioFormat };

function shownFor(result: DownloadResult, format: AudioFormat): Shown {
  switch (result.state) {
    case "cancelled":
      return { kind: "idle" };
    case "complete":
      return {
        kind: "done",
        text: result.platformLinkFailed
          ? i18n.t("download.savedArchive")
          : i18n.t("download.saved"),
      };
    case "failed": {
      const reason = result.reason;
      const text =
        result.problem === "link_expired"
          ? i18n.t("download.linkExpired")
          : result.problem === "network"
            ? i18n.t("download.network", { reason })
            : result.problem === "file"
              ? i18n.t("download.file", { reason })
              : i18n.t("download.other", { reason });
      return { kind: "problem", text, format };
    }
  }
}

function progressText(progress: DownloadProgress | null): string {
  if (!progress) return i18n.t("download.busy");
  if (progress.total)
    return i18n.t("download.progress", {
      percent: String(Math.floor((100 * progress.received) / progress.total)),
    });
  return i18n.t("download.progressBytes", {
    size: `${(progress.received / 1_048_576).toFixed(1)} MB`,
  });
}

/** The running download's progress, asked for while `busy`. */
function useProgress(taskId: string, busy: boolean): DownloadProgress | null {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  useEffect(() => {
    setProgress(null);
    if (!busy) return;
    const timer = setInterval(() => {
      send("audio/download-progress", { id: taskId })
        .then(setProgress)
        .catch(() => undefined);
    }, PROGRESS_EVERY_MS);
    return () => {
      clearInterval(timer);
    };
  }, [taskId, busy]);
  return progress;
}

/**
 * Download and its outcome: the original (WAV) or, once archived, the MP3, named after the
 * track. While it runs it shows how far it is; the background answers when the browser
 * finished (or refused) the file, so a download that fails after it started is reported, with
 * what can be done about it.
 */
export function DownloadControl(props: { task: Task; onPlatformLinkFailed: () => void }) {
  const { task } = props;
  const [shown, setShown] = useState<Shown>({ kind: "idle" });
  const busy = shown.kind === "busy";
  const progress = useProgress(task.id, busy);
  const start = (format: AudioFormat) => {
    setShown({ kind: "busy", format });
    send("audio/download", { id: task.id, format })
      .then((result) => {
        if (
          (result.state === "complete" && result.platformLinkFailed) ||
          (result.state === "failed" && result.problem === "link_expired")
        )
          props.onPlatformLinkFailed();
        setShown(shownFor(result, format));
      })
      .catch((error: unknown) => {
        setShown({ kind: "problem", text: errorText(error), format });
      });
  };
  const title = taskTitle(task);
  // The name adds the title, so one card's Download is told from the next card's.
  const formats: { format: AudioFormat; label: string; name: string }[] = streamable(task)
    ? [
        {
          format: "original",
          label: i18n.t("download.wav"),
          name: i18n.t("download.wavTrack", { title }),
        },
        {
          format: "mp3",
          label: i18n.t("download.mp3"),
          name: i18n.t("download.mp3Track", { title }),
        },
      ]
    : [
        {
          format: "original",
          label: i18n.t("result.download"),
          name: i18n.t("result.downloadTrack", { title }),
        },
      ];
  return (
    <>
      {formats.map(({ format, label, name }) => (
        <button
          key={format}
          type="button"
          data-testid={`download-${format}`}
          aria-label={name}
          onClick={() => {
            start(format);
          }}
          disabled={busy}
        >
          {label}
        </button>
      ))}
      {busy ? (
        <span class="small muted download-note" role="status" data-testid="download-progress">
          {progressText(progress)}
        </span>
      ) : null}
      {shown.kind === "done" ? (
        <span class="small muted download-note" role="status" data-testid="download-state">
          {shown.text}
        </span>
      ) : null}
      {shown.kind === "problem" ? (
        <div class="banner bad small download-note" role="alert" data-testid="download-problem">
          <p>{shown.text}</p>
          <button
            type="button"
            aria-label={i18n.t("download.retryTrack", { title })}
            onClick={() => {
              start(shown.format);
            }}
          >
            {i18n.t("download.retry")}
          </button>
        </div>
      ) : null}
    </>
  );
}
