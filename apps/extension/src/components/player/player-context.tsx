import { createContext, type ComponentChildren } from "preact";
import { useContext, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { loadAudio } from "../../lib/audio-client.ts";
import { errorText } from "../../lib/texts.ts";
import type { Task } from "../../lib/types.ts";

/**
 * The one player of a view. Nothing is fetched until the person presses play on a track; its
 * bytes then come from the background (which keeps them, so a replay transfers nothing) and stay
 * in this view as a blob URL while the track is the current one.
 */
export interface PlayerState {
  task: Task | null;
  status: "idle" | "loading" | "ready" | "failed";
  /** The current track's audio as a blob (for the `<audio>` and the waveform). */
  blob: Blob | null;
  src: string | null;
  problem: string | null;
  playing: boolean;
}

export interface Player extends PlayerState {
  /** Plays `task` (loading it first), or pauses/resumes it when it is the current track. */
  toggle(task: Task): void;
  close(): void;
  /** The single `<audio>` element; the mini-player attaches it. */
  audioRef: { current: HTMLAudioElement | null };
  setPlaying(playing: boolean): void;
}

const IDLE: PlayerState = {
  task: null,
  status: "idle",
  blob: null,
  src: null,
  problem: null,
  playing: false,
};

const PlayerContext = createContext<Player | null>(null);

export function PlayerProvider(props: { children: ComponentChildren }) {
  const [state, setStateOnly] = useState<PlayerState>(IDLE);
  // The latest state for the stable actions below (they are created once).
  const current = useRef<PlayerState>(IDLE);
  const setState = (next: PlayerState | ((previous: PlayerState) => PlayerState)) => {
    current.current = typeof next === "function" ? next(current.current) : next;
    setStateOnly(current.current);
  };
  const audioRef = useRef<HTMLAudioElement | null>(null);
  // The load in flight: a later toggle or close makes an earlier answer stale.
  const generation = useRef(0);

  useEffect(() => {
    const src = state.src;
    return () => {
      if (src) URL.revokeObjectURL(src);
    };
  }, [state.src]);

  const player = useMemo<Player>(() => {
    const load = (task: Task) => {
      const mine = ++generation.current;
      audioRef.current?.pause();
      setState({ ...IDLE, task, status: "loading" });
      loadAudio(task.id)
        .then((blob) => {
          if (generation.current !== mine) return;
          setState({ ...IDLE, task, status: "ready", blob, src: URL.createObjectURL(blob) });
        })
        .catch((error: unknown) => {
          if (generation.current !== mine) return;
          setState({ ...IDLE, task, status: "failed", problem: errorText(error) });
        });
    };
    return {
      ...IDLE,
      audioRef,
      toggle: (task) => {
        const { task: playing, status } = current.current;
        if (playing?.id !== task.id || status === "failed") {
          load(task);
          return;
        }
        const audio = audioRef.current;
        if (status !== "ready" || !audio) return;
        if (audio.paused) void audio.play().catch(() => undefined);
        else audio.pause();
      },
      close: () => {
        generation.current++;
        audioRef.current?.pause();
        setState(IDLE);
      },
      setPlaying: (playing) => {
        setState((current) => (current.playing === playing ? current : { ...current, playing }));
      },
    };
  }, []);

  const value = useMemo(() => ({ ...player, ...state }), [player, state]);
  return <PlayerContext.Provider value={value}>{props.children}</PlayerContext.Provider>;
}

export function usePlayer(): Player {
  const player = useContext(PlayerContext);
  if (!player) throw new Error("usePlayer needs a PlayerProvider above it");
  return player;
}
