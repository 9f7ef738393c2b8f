import { i18n } from "#i18n";
import { useEffect, useRef, useState } from "preact/hooks";
import { decodeChannels, loadAudio } from "../../lib/audio-client.ts";
import { linkState, remaining } from "../../lib/format.ts";
import { computePeaks, drawPeaks } from "../../lib/peaks.ts";
import { errorText } from "../../lib/texts.ts";
import type { Task } from "../../lib/types.ts";
import { DownloadControl } from "./download-control.tsx";

const BARS = 120;

/**
 * A finished track: played in place from the bytes the background fetched, its waveform drawn
 * from the same bytes, a download through the downloads API, the link to copy, and how long the
 * platform link still works.
 */
export function ResultPlayer(props: { task: Task; now: number }) {
  const { task, now } = props;
  const [src, setSrc] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [waveform, setWaveform] = useState<"pending" | "drawn" | "failed">("pending");
  const [copied, setCopied] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  // A download proved the platform's link dead before its estimated expiry.
  const [linkFailed, setLinkFailed] = useState(false);
  const estimated = linkState(task, now);
  const link = linkFailed ? { valid: false, remainingMs: 0 } : estimated;

  useEffect(() => {
    // Work that finishes after the item unmounts (or shows another task) is dropped.
    const run = { alive: true, url: null as string | null };
    const alive = () => run.alive;
    loadAudio(task.id)
      .then(async (blob) => {
        if (!alive()) return;
        run.url = URL.createObjectURL(blob);
        setSrc(run.url);
        try {
          const peaks = computePeaks(await decodeChannels(blob), BARS);
          if (alive() && canvas.current) drawPeaks(canvas.current, peaks);
          if (alive()) setWaveform("drawn");
        } catch {
          if (alive()) setWaveform("failed");
        }
      })
      .catch((error: unknown) => {
        if (alive()) setProblem(errorText(error));
      });
    return () => {
      run.alive = false;
      if (run.url) URL.revokeObjectURL(run.url);
    };
  }, [task.id]);

  const copy = () => {
    const text = link.valid ? task.file_url : task.audio_url;
    if (!text) return;
    void navigator.clipboard.writeText(text).then(() => {
      setCopied(true);
    });
  };

  return (
    <div class="player">
      {problem ? (
        <p class="small" role="alert">
          {i18n.t("result.loadFailed", { reason: problem })}
        </p>
      ) : src ? (
        <audio controls preload="auto" src={src} aria-label={i18n.t("result.waveform")} />
      ) : (
        <p class="muted small" role="status">
          {i18n.t("result.loading")}
        </p>
      )}
      <canvas
        ref={canvas}
        class="waveform"
        role="img"
        aria-label={i18n.t("result.waveform")}
        data-state={waveform}
        hidden={waveform === "failed" || Boolean(problem)}
      />
      {waveform === "failed" ? <p class="muted small">{i18n.t("result.noWaveform")}</p> : null}
      <div class="row">
        <DownloadControl
          taskId={task.id}
          onPlatformLinkFailed={() => {
            setLinkFailed(true);
          }}
        />
        <button type="button" onClick={copy} disabled={!link.valid && !task.audio_url}>
          {i18n.t("result.copyLink")}
        </button>
        <span class="small muted" role="status">
          {copied ? i18n.t("result.copied") : ""}
        </span>
      </div>
      <p class="small muted" data-testid="link-expiry">
        {link.valid
          ? link.remainingMs !== null
            ? i18n.t("result.expiresIn", { time: remaining(link.remainingMs) })
            : null
          : task.audio_url
            ? `${i18n.t("result.expired")} ${i18n.t("result.archived")}`
            : i18n.t("result.expired")}
      </p>
    </div>
  );
}
