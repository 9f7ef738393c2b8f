import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { decodeChannels } from "../../lib/views/audio-client.ts";
import { streamable, taskTitle } from "../../lib/shared/format.ts";
import { computePeaks, WAVEFORM_BARS } from "../../lib/shared/peaks.ts";
import { useWaveform } from "../../lib/views/use-waveform.ts";
import { usePlayer } from "./player-context.tsx";
import { WaveformBar } from "./waveform.tsx";

interface Drawn {
  state: "pending" | "drawn" | "failed";
  bars: number[] | null;
}

/** The waveform of a track the background sent as bytes (not archived yet): decoded here. */
function useDecodedBars(blob: Blob | null): Drawn {
  const [drawn, setDrawn] = useState<Drawn>({ state: "pending", bars: null });
  useEffect(() => {
    setDrawn({ state: "pending", bars: null });
    if (!blob) return;
    let alive = true;
    decodeChannels(blob)
      .then((channels) => {
        if (alive) setDrawn({ state: "drawn", bars: computePeaks(channels, WAVEFORM_BARS) });
      })
      .catch(() => {
        if (alive) setDrawn({ state: "failed", bars: null });
      });
    return () => {
      alive = false;
    };
  }, [blob]);
  return drawn;
}

/**
 * The bar at the bottom of the view with the one `<audio>` element: the current track's title,
 * play/pause, a waveform that shows the playhead and seeks where it is clicked, and close.
 * Hidden until the person plays something.
 */
export function MiniPlayer() {
  const player = usePlayer();
  const task = player.task;
  const stored = useWaveform(task && streamable(task) ? task.id : null);
  const decoded = useDecodedBars(player.blob);
  const drawn: Drawn =
    player.mode === "blob" ? decoded : { state: stored.state, bars: stored.waveform?.bars ?? null };

  // Pressing play means "play": start as soon as the source is set (the click that asked for it
  // gave the page the user activation that playing needs).
  useEffect(() => {
    const audio = player.audioRef.current;
    if (player.src && audio) void audio.play().catch(() => undefined);
  }, [player.src]);

  if (!task) return null;
  const audio = player.audioRef.current;
  const duration =
    audio && Number.isFinite(audio.duration) ? audio.duration : (stored.waveform?.duration ?? null);

  return (
    <section
      class="mini-player"
      aria-label={i18n.t("player.label")}
      data-task-id={task.id}
      data-state={player.status}
      data-mode={player.mode ?? ""}
    >
      <div class="row spread">
        <button
          type="button"
          class="primary"
          data-testid="player-toggle"
          disabled={player.status !== "ready"}
          onClick={() => {
            player.toggle(task);
          }}
        >
          {player.playing ? i18n.t("player.pause") : i18n.t("player.play")}
        </button>
        <span class="title">{taskTitle(task)}</span>
        <button
          type="button"
          class="icon"
          aria-label={i18n.t("player.close")}
          onClick={() => {
            player.close();
          }}
        >
          ×
        </button>
      </div>
      {player.status === "loading" ? (
        <p class="muted small" role="status">
          {i18n.t("result.loading")}
        </p>
      ) : null}
      {player.status === "failed" ? (
        <p class="small" role="alert">
          {i18n.t("result.loadFailed", { reason: player.problem ?? "" })}
        </p>
      ) : null}
      {player.status !== "failed" && drawn.state !== "failed" ? (
        <WaveformBar
          bars={drawn.bars}
          state={drawn.state}
          position={player.position}
          duration={duration}
          disabled={player.status !== "ready"}
          onSeek={(fraction) => {
            player.seek(task, fraction);
          }}
          testId="player-waveform"
        />
      ) : null}
      {player.status === "ready" && drawn.state === "failed" ? (
        <p class="muted small">{i18n.t("result.noWaveform")}</p>
      ) : null}
      <audio
        ref={(element) => {
          player.audioRef.current = element;
        }}
        controls
        preload="auto"
        // A CORS request, which the backend answers for the extension's origins (and the host
        // permission lets through): the media link is another site than the extension's pages,
        // and the backend's `Cross-Origin-Resource-Policy: same-site` refuses the plain
        // (no-cors) request an <audio> element makes.
        crossOrigin={player.mode === "stream" ? "anonymous" : undefined}
        src={player.src ?? undefined}
        hidden={player.status !== "ready"}
        aria-label={i18n.t("result.waveform")}
        onLoadedMetadata={(event) => {
          const element = event.currentTarget;
          const seek = player.takePendingSeek();
          if (seek !== null && Number.isFinite(element.duration))
            element.currentTime = seek * element.duration;
        }}
        onError={(event) => {
          // A source that never arrives (the backend refused the link, or is gone) is said,
          // not left as a silent player. An emptied element (closed, switched) is no error.
          const error = event.currentTarget.error;
          if (error && player.src)
            player.fail(i18n.t("result.mediaError", { code: String(error.code) }));
        }}
        onPlay={() => {
          player.setPlaying(true);
        }}
        onPause={() => {
          player.setPlaying(false);
        }}
        onEnded={() => {
          player.setPlaying(false);
        }}
        onTimeUpdate={(event) => {
          const element = event.currentTarget;
          if (Number.isFinite(element.duration) && element.duration > 0)
            player.setPosition(element.currentTime / element.duration);
        }}
      />
    </section>
  );
}
