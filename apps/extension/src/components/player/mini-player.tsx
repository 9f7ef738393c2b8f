import { i18n } from "../../lib/i18n.ts";
import { useEffect, useRef, useState } from "preact/hooks";
import { decodeChannels } from "../../lib/audio-client.ts";
import { taskTitle } from "../../lib/format.ts";
import { computePeaks, drawPeaks } from "../../lib/peaks.ts";
import { usePlayer } from "./player-context.tsx";

const BARS = 120;

/**
 * The bar at the bottom of the view with the one `<audio>` element: the current track's title,
 * play/pause, a waveform that shows the playhead and seeks where it is clicked, and close.
 * Hidden until the person plays something.
 */
export function MiniPlayer() {
  const player = usePlayer();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [waveform, setWaveform] = useState<"pending" | "drawn" | "failed">("pending");
  const [position, setPosition] = useState(0);

  useEffect(() => {
    setWaveform("pending");
    setPosition(0);
    const blob = player.blob;
    if (!blob) return;
    let alive = true;
    decodeChannels(blob)
      .then((channels) => {
        if (!alive || !canvas.current) return;
        drawPeaks(canvas.current, computePeaks(channels, BARS));
        setWaveform("drawn");
      })
      .catch(() => {
        if (alive) setWaveform("failed");
      });
    return () => {
      alive = false;
    };
  }, [player.blob]);

  // Pressing play means "play": start as soon as the bytes are here (the click that asked for
  // them gave the page the user activation that playing needs).
  useEffect(() => {
    const audio = player.audioRef.current;
    if (player.src && audio) void audio.play().catch(() => undefined);
  }, [player.src]);

  if (!player.task) return null;
  const audio = player.audioRef.current;
  const seek = (event: MouseEvent) => {
    const target = event.currentTarget as HTMLElement;
    const box = target.getBoundingClientRect();
    if (!audio || !Number.isFinite(audio.duration) || box.width <= 0) return;
    const fraction = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
    audio.currentTime = fraction * audio.duration;
    setPosition(fraction);
  };
  const onKey = (event: KeyboardEvent) => {
    if (!audio || !Number.isFinite(audio.duration)) return;
    const step = event.key === "ArrowRight" ? 5 : event.key === "ArrowLeft" ? -5 : 0;
    if (step === 0) return;
    event.preventDefault();
    audio.currentTime = Math.min(audio.duration, Math.max(0, audio.currentTime + step));
  };

  return (
    <section
      class="mini-player"
      aria-label={i18n.t("player.label")}
      data-task-id={player.task.id}
      data-state={player.status}
    >
      <div class="row spread">
        <button
          type="button"
          class="primary"
          data-testid="player-toggle"
          disabled={player.status !== "ready"}
          onClick={() => {
            if (player.task) player.toggle(player.task);
          }}
        >
          {player.playing ? i18n.t("player.pause") : i18n.t("player.play")}
        </button>
        <span class="title">{taskTitle(player.task)}</span>
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
      <div
        class="waveform-box"
        role="slider"
        tabIndex={player.status === "ready" ? 0 : -1}
        aria-label={i18n.t("result.waveform")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(position * 100)}
        hidden={player.status !== "ready" || waveform === "failed"}
        onClick={seek}
        onKeyDown={onKey}
      >
        <canvas ref={canvas} class="waveform" data-state={waveform} />
        <span class="playhead" style={{ left: `${(position * 100).toFixed(2)}%` }} />
      </div>
      {player.status === "ready" && waveform === "failed" ? (
        <p class="muted small">{i18n.t("result.noWaveform")}</p>
      ) : null}
      <audio
        ref={(element) => {
          player.audioRef.current = element;
        }}
        controls
        preload="auto"
        src={player.src ?? undefined}
        hidden={player.status !== "ready"}
        aria-label={i18n.t("result.waveform")}
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
            setPosition(element.currentTime / element.duration);
        }}
      />
    </section>
  );
}
