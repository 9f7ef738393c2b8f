import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useState } from "preact/hooks";
import { decodeChannels } from "../../lib/views/audio-client.ts";
import { clock, streamable, taskTitle } from "../../lib/shared/format.ts";
import { computePeaks, WAVEFORM_BARS } from "../../lib/shared/peaks.ts";
import { useWaveform } from "../../lib/views/use-waveform.ts";
import { Icon } from "../icons.tsx";
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

/** Seconds the arrow keys move the playhead. */
const KEY_STEP_SECONDS = 5;

/** Whether a key pressed on `target` belongs to it (typing, a button's own Space). */
const ownsKey = (target: EventTarget | null, key: string) =>
  target instanceof HTMLElement &&
  (target.matches("input, textarea, select") || (key === " " && target.matches("button")));

/**
 * The bar at the bottom of the view, one line high, with the one `<audio>` element (no
 * browser controls): play/pause, the title and time, a waveform that shows the playhead and
 * seeks where it is clicked, previous and next in the list, close. From the keyboard anywhere
 * in the bar: Space plays or pauses, ← and → move 5 s. Hidden until the person plays something.
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
  const title = taskTitle(task);
  const audio = player.audioRef.current;
  const duration =
    audio && Number.isFinite(audio.duration) && audio.duration > 0
      ? audio.duration
      : (stored.waveform?.duration ?? null);
  const ready = player.status === "ready";
  const at = duration !== null ? player.position * duration : null;
  const time =
    at !== null && duration !== null ? `${clock(at * 1000)} / ${clock(duration * 1000)}` : "";

  const onKey = (event: KeyboardEvent) => {
    if (event.defaultPrevented || ownsKey(event.target, event.key)) return;
    if (event.key === " ") {
      event.preventDefault();
      if (ready) player.toggle(task);
    } else if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && ready && duration) {
      event.preventDefault();
      const step = (event.key === "ArrowRight" ? KEY_STEP_SECONDS : -KEY_STEP_SECONDS) / duration;
      player.seek(task, Math.min(1, Math.max(0, player.position + step)));
    }
  };

  return (
    <section
      class="mini-player"
      aria-label={i18n.t("player.label")}
      data-task-id={task.id}
      data-state={player.status}
      data-mode={player.mode ?? ""}
      onKeyDown={onKey}
    >
      <button
        type="button"
        class="play primary"
        data-testid="player-toggle"
        aria-label={
          player.playing
            ? i18n.t("player.pauseTrack", { title })
            : i18n.t("player.playTrack", { title })
        }
        title={player.playing ? i18n.t("player.pause") : i18n.t("player.play")}
        disabled={!ready}
        onClick={() => {
          player.toggle(task);
        }}
      >
        <Icon name={player.playing ? "pause" : "play"} />
      </button>
      <div class="mini-main">
        <div class="mini-top">
          <span class="title" title={title}>
            {title}
          </span>
          <PlayerTime time={time} />
        </div>
        {drawn.state === "failed" && ready ? (
          <p class="waveform-note small muted">{i18n.t("result.noWaveform")}</p>
        ) : (
          <WaveformBar
            bars={drawn.bars}
            state={drawn.state}
            position={player.position}
            duration={duration}
            disabled={!ready}
            onSeek={(fraction) => {
              player.seek(task, fraction);
            }}
            testId="player-waveform"
            label={i18n.t("result.seekTrack", { title })}
            valueText={time}
          />
        )}
      </div>
      <PlayerSteps />
      <PlayerAudio />
    </section>
  );
}

/** The time where the track is, or why it is not playing yet (loading, a failure). */
function PlayerTime(props: { time: string }) {
  const player = usePlayer();
  return (
    <>
      {player.status === "loading" ? (
        <span class="time small muted" role="status">
          {i18n.t("result.loading")}
        </span>
      ) : player.status === "failed" ? (
        <span
          class="time small problem"
          role="alert"
          title={i18n.t("result.loadFailed", { reason: player.problem ?? "" })}
        >
          {i18n.t("result.loadFailed", { reason: player.problem ?? "" })}
        </span>
      ) : (
        <span class="time small muted" data-testid="player-time">
          {props.time}
        </span>
      )}
    </>
  );
}

/** Previous and next in the list, and close. */
function PlayerSteps() {
  const player = usePlayer();
  return (
    <>
      <button
        type="button"
        class="icon"
        aria-label={i18n.t("player.previous")}
        title={i18n.t("player.previous")}
        disabled={!player.canStep(-1)}
        onClick={() => {
          player.step(-1);
        }}
      >
        <Icon name="previous" />
      </button>
      <button
        type="button"
        class="icon"
        aria-label={i18n.t("player.next")}
        title={i18n.t("player.next")}
        disabled={!player.canStep(1)}
        onClick={() => {
          player.step(1);
        }}
      >
        <Icon name="next" />
      </button>
      <button
        type="button"
        class="icon"
        aria-label={i18n.t("player.close")}
        title={i18n.t("player.close")}
        onClick={() => {
          player.close();
        }}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </>
  );
}

/**
 * The one `<audio>` element (no browser controls: the bar is the player), reporting its state
 * to the player and starting where a seek asked before the length was known.
 */
function PlayerAudio() {
  const player = usePlayer();
  return (
    <audio
      ref={(element) => {
        player.audioRef.current = element;
      }}
      preload="auto"
      // A CORS request, which the backend answers for the extension's origins (and the host
      // permission lets through): the media link is another site than the extension's pages,
      // and the backend's `Cross-Origin-Resource-Policy: same-site` refuses the plain
      // (no-cors) request an <audio> element makes.
      crossOrigin={player.mode === "stream" ? "anonymous" : undefined}
      src={player.src ?? undefined}
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
  );
}
