import { useEffect, useState } from "preact/hooks";
import type { DownloadProgress, DownloadResult } from "../../lib/shared/download-result.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import type { AudioFormat, Task } from "../../lib/shared/types.ts";
import { errorText } from "../../lib/views/texts.ts";

/** How often a running download's progress is asked for. */
const PROGRESS_EVERY_MS = 500;

export type Shown =
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
 * A track's downloads: the original (WAV) or, once archived, the MP3, named after the track. The
 * background answers when the browser finished (or refused) the file, so a download that fails
 * after it started is reported, with what can be done about it; its progress is asked for while
 * it runs. `onPlatformLinkFailed`: a download proved the platform's own link dead.
 */
export function useDownload(task: Task, onPlatformLinkFailed?: () => void) {
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
          onPlatformLinkFailed?.();
        setShown(shownFor(result, format));
      })
      .catch((error: unknown) => {
        setShown({ kind: "problem", text: errorText(error), format });
      });
  };
  return { shown, busy, start, progressText: progressText(progress) };
}

export type Download = ReturnType<typeof useDownload>;
