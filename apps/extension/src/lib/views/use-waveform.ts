import { useEffect, useState } from "preact/hooks";
import { send } from "../shared/messages.ts";
import type { Waveform } from "../shared/peaks.ts";

// The waveforms this view asked for, by task: the card and the mini-player share one request.
const asked = new Map<string, Promise<Waveform>>();

function waveformOf(taskId: string): Promise<Waveform> {
  let pending = asked.get(taskId);
  if (!pending) {
    pending = send("audio/peaks", { id: taskId });
    // A failure is not kept: the next view (or a later render) may ask again.
    pending.catch(() => asked.delete(taskId));
    asked.set(taskId, pending);
  }
  return pending;
}

/** Forgets the waveforms this view fetched (tests start each case from nothing). */
export function forgetWaveforms(): void {
  asked.clear();
}

export type WaveformState =
  | { state: "pending"; waveform: null }
  | { state: "drawn"; waveform: Waveform }
  | { state: "failed"; waveform: null };

/**
 * The stored waveform of an archived task (a few hundred bytes from the background, which keeps
 * them), asked for only once `wanted` (the card is on screen); null `taskId` asks nothing.
 */
export function useWaveform(taskId: string | null, wanted = true): WaveformState {
  const [shown, setShown] = useState<WaveformState>({ state: "pending", waveform: null });
  useEffect(() => {
    setShown({ state: "pending", waveform: null });
    if (!taskId || !wanted) return;
    let alive = true;
    waveformOf(taskId)
      .then((waveform) => {
        if (alive) setShown({ state: "drawn", waveform });
      })
      .catch(() => {
        if (alive) setShown({ state: "failed", waveform: null });
      });
    return () => {
      alive = false;
    };
  }, [taskId, wanted]);
  return shown;
}

/**
 * Whether the element has come on screen (and stays true after): a long list asks for the
 * waveforms of the cards the person sees, not for all of them. Without IntersectionObserver
 * everything counts as seen.
 */
export function useSeen(ref: { current: Element | null }): boolean {
  const [seen, setSeen] = useState(typeof IntersectionObserver === "undefined");
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setSeen(true);
        observer.disconnect();
      }
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [ref, seen]);
  return seen;
}
