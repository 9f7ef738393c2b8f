/**
 * The emulator's one clock. Task transitions, token and file lifetimes and webhook retries all
 * read it and schedule on it, so a test can drive everything with `advance(ms)` (manual mode)
 * and a demo can run the spec's 1–10 minute tasks in seconds (real mode with a scale).
 */

import { createTimerQueue, type Timer } from "./timer-queue.ts";

/** Anything that tells the time in epoch milliseconds. */
export interface ClockSource {
  /** The current time in epoch milliseconds. */
  now(): number;
}

/**
 * The handle {@link EmulatorClock.setTimer} returns; pass it to `clearTimer` to cancel the timer.
 *
 * @example
 * ```ts
 * const id: TimerId = clock.setTimer(5_000, () => console.log("5 s later"));
 * clock.clearTimer(id);
 * ```
 */
export type TimerId = number;

/**
 * The emulator's clock, which everything time-related reads and schedules on: task transitions,
 * token and file lifetimes, webhook retries. Pass one made by {@link createClock} as the `clock`
 * option to share it between an emulator and your own code (e.g. a receiver's `now`), or reach
 * the emulator's own through `emu.control.clock`.
 *
 * @example
 * ```ts
 * const clock = createClock({ mode: "manual" });
 * const emu = createPlatformEmulator({ clock });
 * await clock.advance(10_000); // the emulator's tasks move on
 * ```
 */
export interface EmulatorClock extends ClockSource {
  /** `manual`: time moves only by `advance`; `real`: wall time × scale; `source`: an injected clock. */
  readonly mode: "manual" | "real" | "source";
  /** Emulated milliseconds per wall millisecond (only `real` mode flows on its own). */
  readonly scale: number;
  /** Changes the scale from now on; time already elapsed keeps the old one. Throws on 0 or less. */
  setScale(scale: number): void;
  /** Runs `fn` once the clock reaches now + `delayMs`. */
  setTimer(delayMs: number, fn: () => void): TimerId;
  /** Cancels a timer that has not fired; an unknown or fired id is ignored. */
  clearTimer(id: TimerId): void;
  /**
   * Moves time forward by `ms`, firing due timers in order. `between` runs before each look for
   * the next due timer, so work already started (a webhook attempt) can finish and schedule its
   * follow-up (a retry) first.
   */
  advance(ms: number, between?: () => Promise<void>): Promise<void>;
  /** Fires every timer already due (for `source` clocks, whose time moves outside our control). */
  tick(): void;
  /** How many timers wait to fire (task transitions, retries, expiries). */
  pendingTimers(): number;
  /** Drops every timer (used by reset). */
  clearAll(): void;
  /** Stops the wall-time dispatcher; the clock keeps answering `now()`. */
  close(): void;
}

/**
 * How {@link createClock} makes a clock: its mode, start, scale, and where its errors go.
 *
 * @example
 * ```ts
 * const options: ClockOptions = { mode: "real", scale: 60 }; // an emulated minute per second
 * ```
 */
export interface ClockOptions {
  /** `manual`: moves by `advance` only; `real`: wall time × scale; `source`: reads `source`. */
  mode: "manual" | "real" | "source";
  /** Start time for `manual` (default: wall time at creation). */
  start?: number;
  /** Emulated milliseconds per wall millisecond in `real` mode. Default 1. */
  scale?: number;
  /** The time source of `source` mode (required there), e.g. a test framework's fake clock. */
  source?: ClockSource;
  /** Where an error thrown by a timer's callback goes; default `console.error`. */
  onError?: (error: unknown) => void;
}

const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * Makes an {@link EmulatorClock}. The emulator makes its own from the `clock` option; make one
 * yourself to hold it before the emulator exists, or to give the same clock to several
 * emulators or to your receiver.
 *
 * @throws `Error` for `source` mode without `source`; `RangeError` for a scale of 0 or less.
 *
 * @example
 * ```ts
 * const clock = createClock({ mode: "manual", start: Date.UTC(2026, 0, 1) });
 * await clock.advance(60_000);
 * clock.now(); // 2026-01-01T00:01:00Z in ms
 * ```
 */
export function createClock(options: ClockOptions): EmulatorClock {
  const { mode } = options;
  const source = options.source ?? (mode === "source" ? undefined : { now: () => Date.now() });
  if (!source) throw new Error("a source clock needs `source`");
  const src: ClockSource = source;
  let scale = positive(options.scale ?? 1);
  let anchorEmu = options.start ?? Date.now();
  let anchorWall = Date.now();
  let offset = 0;
  const timers = createTimerQueue();
  let handle: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const onError =
    options.onError ??
    ((error: unknown) => {
      console.error(error);
    });

  function base(): number {
    if (mode === "manual") return anchorEmu;
    if (mode === "source") return src.now();
    return anchorEmu + (Date.now() - anchorWall) * scale;
  }
  const now = (): number => Math.floor(base() + offset);

  function run(timer: Timer): void {
    try {
      timer.fn();
    } catch (error) {
      onError(error);
    }
  }

  function tick(): void {
    for (let t = timers.takeDue(now()); t; t = timers.takeDue(now())) run(t);
    arm();
  }

  function arm(): void {
    if (handle) clearTimeout(handle);
    handle = undefined;
    const first = timers.first();
    if (mode !== "real" || closed || !first) return;
    const wait = Math.min(MAX_TIMEOUT_MS, Math.max(0, (first.due - now()) / scale));
    handle = setTimeout(tick, Math.ceil(wait));
    handle.unref();
  }

  return {
    mode,
    get scale() {
      return scale;
    },
    now,
    setScale(next) {
      anchorEmu = base();
      anchorWall = Date.now();
      scale = positive(next);
      arm();
    },
    setTimer(delayMs, fn) {
      const id = timers.add(now() + Math.max(0, delayMs), fn);
      arm();
      return id;
    },
    clearTimer(id) {
      timers.remove(id);
      arm();
    },
    async advance(ms, between) {
      const target = now() + Math.max(0, ms);
      for (;;) {
        // Settle first: finished work may schedule a timer (a retry) inside this window.
        if (between) await between();
        const t = timers.takeDue(target);
        if (!t) break;
        offset += Math.max(0, t.due - now());
        run(t);
      }
      offset += Math.max(0, target - now());
      arm();
    },
    tick,
    pendingTimers: () => timers.size,
    clearAll() {
      timers.clear();
      arm();
    },
    close() {
      closed = true;
      arm();
    },
  };
}

/** An `EmulatorClock` (used as it is) rather than a bare time source (wrapped in one). */
export function isEmulatorClock(clock: ClockSource | EmulatorClock): clock is EmulatorClock {
  return "setTimer" in clock && "advance" in clock;
}

function positive(scale: number): number {
  if (!Number.isFinite(scale) || scale <= 0) throw new RangeError("clock scale must be > 0");
  return scale;
}
