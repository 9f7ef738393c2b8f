import { createContext, type ComponentChildren } from "preact";
import { useContext, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { loadAudio } from "../../lib/views/audio-client.ts";
import { warmAudioOutput } from "../../lib/views/audio-output.ts";
import { send } from "../../lib/shared/messages.ts";
import { streamable } from "../../lib/shared/format.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { MediaLink, Task } from "../../lib/shared/types.ts";

/**
 * The one player of a view. Nothing is fetched until the person presses play on a track. An
 * archived track streams its MP3 from the backend through a media link (HTTP Range: it starts
 * and seeks before the whole file has arrived; the browser's media cache keeps what came). A
 * track not archived yet comes from the background (which keeps the bytes, so a replay
 * transfers nothing) and stays in this view as a blob URL while it is the current one.
 */
export interface PlayerState {
  task: Task | null;
  status: "idle" | "loading" | "ready" | "failed";
  /** `stream`: a media link; `blob`: bytes the background sent (the track is not archived yet). */
  mode: "stream" | "blob" | null;
  /** The current track's audio when it came as bytes (for the waveform drawn from them). */
  blob: Blob | null;
  src: string | null;
  problem: string | null;
  playing: boolean;
  /** The playhead, 0–1 of the track. */
  position: number;
}

export interface Player extends PlayerState {
  /** Plays `task` (loading it first), or pauses/resumes it when it is the current track. */
  toggle(task: Task): void;
  /**
   * Gets ready to play `task` (the pointer reached its Play): asks for its media link now, so
   * the click finds it waiting (the background keeps it). No audio is fetched.
   */
  prepare(task: Task): void;
  /** Moves the playhead of `task` to `fraction` (0–1), starting it first if it is not current. */
  seek(task: Task, fraction: number): void;
  /** The list previous/next move in (the library as it is shown). */
  setQueue(tasks: readonly Task[]): void;
  /** Plays the previous (-1) or next (1) playable track of the list; false when there is none. */
  step(direction: 1 | -1): boolean;
  /** Whether there is a playable track before (-1) or after (1) the current one. */
  canStep(direction: 1 | -1): boolean;
  close(): void;
  /** The single `<audio>` element; the mini-player attaches it. */
  audioRef: { current: HTMLAudioElement | null };
  setPlaying(playing: boolean): void;
  setPosition(position: number): void;
  /** The `<audio>` element could not load or play the source: says why (Play tries again). */
  fail(problem: string): void;
  /** Where to start once the track's length is known (a seek asked before that), 0–1. */
  takePendingSeek(): number | null;
}

const IDLE: PlayerState = {
  task: null,
  status: "idle",
  mode: null,
  blob: null,
  src: null,
  problem: null,
  playing: false,
  position: 0,
};

const PlayerContext = createContext<Player | null>(null);

/** A prepared media link is used while it has this long left (a track is rarely longer). */
const LINK_MARGIN_MS = 10 * 60_000;
const streamableOrFinished = (task: Task) => task.status === "success";

/**
 * The task's media link: the one asked for ahead of a click (visible rows, a pointer on Play)
 * while it lasts, else a new request. The background keeps them too.
 */
function mediaLinks(prepared: Map<string, Promise<MediaLink>>): (task: Task) => Promise<MediaLink> {
  const ask = (task: Task): Promise<MediaLink> => {
    const link = send("audio/media-link", { id: task.id, format: "mp3" });
    prepared.set(task.id, link);
    // A failure is not kept: the next press asks again.
    link.catch(() => prepared.delete(task.id));
    return link;
  };
  return (task) => {
    const known = prepared.get(task.id);
    if (!known) return ask(task);
    return known.then((link) =>
      Date.parse(link.expires_at) - Date.now() > LINK_MARGIN_MS ? link : ask(task),
    );
  };
}

/** What loading a track needs of the player: its refs, its state setter, its media links. */
interface LoaderParts {
  /** The load in flight: a later toggle or close makes an earlier answer stale. */
  generation: { current: number };
  pendingSeek: { current: number | null };
  audioRef: { current: HTMLAudioElement | null };
  setState: (next: PlayerState) => void;
  linkFor: (task: Task) => Promise<MediaLink>;
}

/**
 * Makes `task` the current track and loads it: an archived one as its media link, another as
 * bytes from the background (a blob URL). An answer that arrives after a later load is dropped.
 */
function trackLoader(parts: LoaderParts): (task: Task, seekTo?: number | null) => void {
  const { generation, pendingSeek, audioRef, setState, linkFor } = parts;
  return (task, seekTo = null) => {
    const mine = ++generation.current;
    pendingSeek.current = seekTo;
    audioRef.current?.pause();
    setState({ ...IDLE, task, status: "loading", position: seekTo ?? 0 });
    const ready = streamable(task)
      ? linkFor(task).then((link) => ({
          mode: "stream" as const,
          blob: null,
          src: link.url,
        }))
      : loadAudio(task.id).then((blob) => ({
          mode: "blob" as const,
          blob,
          src: URL.createObjectURL(blob),
        }));
    // After the request above is on its way: the two overlap.
    warmAudioOutput();
    ready
      .then((loaded) => {
        if (generation.current !== mine) {
          if (loaded.blob) URL.revokeObjectURL(loaded.src);
          return;
        }
        setState({ ...IDLE, task, status: "ready", position: seekTo ?? 0, ...loaded });
      })
      .catch((error: unknown) => {
        if (generation.current !== mine) return;
        setState({ ...IDLE, task, status: "failed", problem: errorText(error) });
      });
  };
}

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
  const pendingSeek = useRef<number | null>(null);
  // Media links asked for ahead of a click (visible rows, a pointer on Play), by task.
  const prepared = useRef(new Map<string, Promise<MediaLink>>());
  const queue = useRef<readonly Task[]>([]);

  useEffect(() => {
    const src = state.src;
    return () => {
      if (src?.startsWith("blob:")) URL.revokeObjectURL(src);
    };
  }, [state.src]);

  const player = useMemo<Player>(() => {
    const linkFor = mediaLinks(prepared.current);
    const playable = () => queue.current.filter(streamableOrFinished);
    const neighbour = (direction: 1 | -1): Task | undefined => {
      const list = playable();
      const at = list.findIndex((task) => task.id === current.current.task?.id);
      return at < 0 ? undefined : list[at + direction];
    };
    const load = trackLoader({ generation, pendingSeek, audioRef, setState, linkFor });
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
      prepare: (task) => {
        if (current.current.task?.id === task.id || !streamable(task)) return;
        linkFor(task).catch(() => undefined);
        warmAudioOutput();
      },
      setQueue: (tasks) => {
        queue.current = tasks;
      },
      step: (direction) => {
        const next = neighbour(direction);
        if (next) load(next);
        return next !== undefined;
      },
      canStep: (direction) => neighbour(direction) !== undefined,
      seek: (task, fraction) => {
        const to = Math.min(1, Math.max(0, fraction));
        const { task: playing, status } = current.current;
        if (playing?.id !== task.id || status === "failed") {
          load(task, to);
          return;
        }
        const audio = audioRef.current;
        if (status === "ready" && audio && Number.isFinite(audio.duration) && audio.duration > 0)
          audio.currentTime = to * audio.duration;
        else pendingSeek.current = to;
        setState((previous) => ({ ...previous, position: to }));
      },
      close: () => {
        generation.current++;
        pendingSeek.current = null;
        audioRef.current?.pause();
        setState(IDLE);
      },
      setPlaying: (playing) => {
        setState((current) => (current.playing === playing ? current : { ...current, playing }));
      },
      setPosition: (position) => {
        setState((current) => (current.position === position ? current : { ...current, position }));
      },
      fail: (problem) => {
        setState((current) =>
          current.task ? { ...current, status: "failed", playing: false, problem } : current,
        );
      },
      takePendingSeek: () => {
        const seek = pendingSeek.current;
        pendingSeek.current = null;
        return seek;
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
