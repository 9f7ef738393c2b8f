import { useEffect, useRef } from "preact/hooks";
import { i18n } from "../../lib/shared/i18n.ts";
import { drawPeaks } from "../../lib/shared/peaks.ts";

/** Seconds an arrow key moves the playhead. */
const KEY_STEP_SECONDS = 5;

/**
 * A waveform that shows the playhead and seeks where it is clicked (or with the arrow keys,
 * Home and End).
 * `bars` null: not drawn (yet). `position` null: this track is not the one playing.
 */
export function WaveformBar(props: {
  bars: readonly number[] | null;
  state: "pending" | "drawn" | "failed";
  position: number | null;
  /** The track's length in seconds, when known (for the arrow keys' step). */
  duration: number | null;
  onSeek: (fraction: number) => void;
  disabled?: boolean;
  testId?: string;
  /** What it moves in which track ("Position in …"), where several share a view. */
  label?: string;
  /** The position in words ("0:06 / 0:08"), read instead of a percentage. */
  valueText?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { bars, position, duration, onSeek, disabled = false } = props;

  useEffect(() => {
    if (canvas.current && bars) drawPeaks(canvas.current, bars);
  }, [bars]);

  const at = position ?? 0;
  const seek = (event: MouseEvent) => {
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    if (disabled || box.width <= 0) return;
    onSeek(Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)));
  };
  const onKey = (event: KeyboardEvent) => {
    if (disabled) return;
    // Home and End: the start and the end, as a slider's keys are.
    const edge = event.key === "Home" ? 0 : event.key === "End" ? 1 : null;
    if (edge !== null) {
      event.preventDefault();
      onSeek(edge);
      return;
    }
    const direction = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (direction === 0) return;
    event.preventDefault();
    const step = duration && duration > 0 ? KEY_STEP_SECONDS / duration : 0.02;
    onSeek(Math.min(1, Math.max(0, at + direction * step)));
  };

  return (
    <div
      class={`waveform-box${bars ? "" : " skeleton"}`}
      role="slider"
      data-testid={props.testId}
      tabIndex={disabled ? -1 : 0}
      aria-label={props.label ?? i18n.t("result.seek")}
      aria-valuetext={props.valueText === "" ? undefined : props.valueText}
      aria-disabled={disabled}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(at * 100)}
      onClick={seek}
      onKeyDown={onKey}
    >
      <canvas ref={canvas} class="waveform" data-state={props.state} />
      {position !== null ? (
        <span class="playhead" style={{ left: `${(at * 100).toFixed(2)}%` }} />
      ) : null}
    </div>
  );
}
