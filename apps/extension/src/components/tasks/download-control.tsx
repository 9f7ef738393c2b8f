import { i18n } from "../../lib/i18n.ts";
import { useState } from "preact/hooks";
import type { DownloadResult } from "../../lib/download-result.ts";
import { send } from "../../lib/messages.ts";
import { errorText } from "../../lib/texts.ts";

type Shown =
  | { kind: "idle" }
  | { kind: "busy" }
  | { kind: "done"; text: string }
  | { kind: "problem"; text: string };

function shownFor(result: DownloadResult): Shown {
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
      return { kind: "problem", text };
    }
  }
}

/**
 * Download and its outcome: the background answers when the browser finished (or refused) the
 * file, so a download that fails after it started is reported, with what can be done about it.
 */
export function DownloadControl(props: { taskId: string; onPlatformLinkFailed: () => void }) {
  const [shown, setShown] = useState<Shown>({ kind: "idle" });
  const start = () => {
    setShown({ kind: "busy" });
    send("audio/download", { id: props.taskId })
      .then((result) => {
        if (
          (result.state === "complete" && result.platformLinkFailed) ||
          (result.state === "failed" && result.problem === "link_expired")
        )
          props.onPlatformLinkFailed();
        setShown(shownFor(result));
      })
      .catch((error: unknown) => {
        setShown({ kind: "problem", text: errorText(error) });
      });
  };
  return (
    <>
      <button type="button" onClick={start} disabled={shown.kind === "busy"}>
        {shown.kind === "busy" ? i18n.t("download.busy") : i18n.t("result.download")}
      </button>
      {shown.kind === "done" ? (
        <span class="small muted download-note" role="status" data-testid="download-state">
          {shown.text}
        </span>
      ) : null}
      {shown.kind === "problem" ? (
        <div class="banner bad small download-note" role="alert" data-testid="download-problem">
          <p>{shown.text}</p>
          <button type="button" onClick={start}>
            {i18n.t("download.retry")}
          </button>
        </div>
      ) : null}
    </>
  );
}
