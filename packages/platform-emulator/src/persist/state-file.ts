import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { STATE_VERSION, type SavedState } from "./saved-state.ts";

/** The file's name inside `dataDir`. */
export const STATE_FILE_NAME = "platform-emulator-state.json";

/** Reads a saved state; `undefined` when the file does not exist yet. Refuses anything else. */
export function readStateFile(path: string): SavedState | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read the emulator state ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let saved: unknown;
  try {
    saved = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `the emulator state ${path} is not valid JSON (${(error as Error).message}); ` +
        "move it away to start from the seed",
      { cause: error },
    );
  }
  const version = (saved as { version?: unknown } | null)?.version;
  if (version !== STATE_VERSION)
    throw new Error(
      `the emulator state ${path} has version ${JSON.stringify(version)}, this emulator reads ` +
        `version ${STATE_VERSION}; move it away to start from the seed`,
    );
  return saved as SavedState;
}

/**
 * Writes atomically: a temporary file beside the target, then a rename, so a crash leaves the
 * previous state or the new one, never half a file. Synchronous, so a write started by `close()`
 * can never be overtaken by an earlier one. Owner-only: the file holds secrets and tokens.
 */
export function writeStateFile(path: string, saved: SavedState): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(saved), { mode: 0o600 });
  renameSync(temp, path);
}

export interface Saver {
  /** Something changed: save within `delayMs` (changes in between share one write). */
  changed(): void;
  /** Saves now if anything changed since the last save. */
  flush(): void;
  /** Saves now if needed and stops saving. */
  close(): void;
}

/**
 * Debounces saves: at most one write per `delayMs` of wall time, plus one on flush/close. A failed
 * background save is reported and tried again at the next change; `flush`/`close` throw it.
 */
export function createSaver(
  save: () => void,
  delayMs: number,
  report: (error: unknown) => void = (error) => {
    console.error("platform emulator: could not save its state:", error);
  },
): Saver {
  let dirty = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    try {
      save();
    } catch (error) {
      dirty = true;
      throw error;
    }
  };
  const background = () => {
    try {
      flush();
    } catch (error) {
      report(error);
    }
  };
  return {
    changed() {
      if (closed) return;
      dirty = true;
      if (timer) return;
      timer = setTimeout(background, delayMs);
      timer.unref();
    },
    flush,
    close() {
      flush();
      closed = true;
    },
  };
}

/** A saver that saves nothing (no state file). */
export const NO_SAVER: Saver = {
  changed: () => undefined,
  flush: () => undefined,
  close: () => undefined,
};
