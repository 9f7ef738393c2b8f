import { i18n } from "../../lib/shared/i18n.ts";
import { useRef, useState } from "preact/hooks";
import { linkState, remaining, streamable, taskTitle } from "../../lib/shared/format.ts";
import type { Task } from "../../lib/shared/types.ts";
import { useSeen, useWaveform } from "../../lib/views/use-waveform.ts";
import { usePlayer } from "../player/player-context.tsx";
import { WaveformBar } from "../player/waveform.tsx";
import { DownloadControl } from "./download-control.tsx";

/**
 * A finished track's controls: play in the view's one player (nothing is fetched before that),
 * the archived track's waveform (its stored peaks, asked for once the card is on screen; it
 * seeks, and shows the playhead while the track is the current one), a download through the
 * downloads API, the link to copy, and how long the platform link still works.
 */
export function ResultPlayer(props: { task: Task; now: number }) {
  const { task, now } = props;
  const player = usePlayer();
  const [copied, setCopied] = useState(false);
  // A download proved the platform's link dead before its estimated expiry.
  const [linkFailed, setLinkFailed] = useState(false);
  const estimated = linkState(task, now);
  const link = linkFailed ? { valid: false, remainingMs: 0 } : estimated;
  const current = player.task?.id === task.id;
  const playing = current && player.playing;
  const box = useRef<HTMLDivElement>(null);
  const archived = streamable(task);
  const seen = useSeen(box);
  const waveform = useWaveform(archived ? task.id : null, seen);
  // Every card has these controls: the title tells a screen reader's list of them apart.
  const title = taskTitle(task);

  const copy = () => {
    const text = link.valid ? task.file_url : task.audio_url;
    if (!text) return;
    void navigator.clipboard.writeText(text).then(() => {
      setCopied(true);
    });
  };

  return (
    <div class="player" ref={box}>
      <div class="row">
        <button
          type="button"
          class="play"
          data-testid="play"
          aria-pressed={playing}
          aria-label={
            playing ? i18n.t("player.pauseTrack", { title }) : i18n.t("player.playTrack", { title })
          }
          disabled={current && player.status === "loading"}
          onClick={() => {
            player.toggle(task);
          }}
          onPointerEnter={() => {
            player.prepare(task);
          }}
          onFocus={() => {
            player.prepare(task);
          }}
        >
          {playing ? i18n.t("player.pause") : i18n.t("player.play")}
        </button>
        <DownloadControl
          task={task}
          onPlatformLinkFailed={() => {
            setLinkFailed(true);
          }}
        />
        <button
          type="button"
          aria-label={i18n.t("result.copyLinkTrack", { title })}
          onClick={copy}
          disabled={!link.valid && !task.audio_url}
        >
          {i18n.t("result.copyLink")}
        </button>
        <span class="small muted" role="status">
          {copied ? i18n.t("result.copied") : ""}
        </span>
      </div>
      {archived && waveform.state !== "failed" ? (
        <WaveformBar
          bars={waveform.waveform?.bars ?? null}
          state={waveform.state}
          position={current ? player.position : null}
          duration={waveform.waveform?.duration ?? null}
          onSeek={(fraction) => {
            player.seek(task, fraction);
          }}
          testId="card-waveform"
          label={i18n.t("result.waveformTrack", { title })}
        />
      ) : null}
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
