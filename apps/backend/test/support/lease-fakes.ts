import { createArchiver, type Archiver } from "../../src/services/archive/archiver.ts";
import type { FileStore } from "../../src/services/archive/store.ts";
import { createTaskRecord } from "../../src/services/tasks/record.ts";
import type { Timers } from "../../src/lib/timers.ts";
import type { TestInstance } from "./harness.ts";

/** A promise the test settles by hand. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Resolves when `signal` aborts (never, without one). */
const abortOf = (signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    signal?.addEventListener(
      "abort",
      () => {
        resolve();
      },
      { once: true },
    );
  });

/**
 * The heartbeat's timers, fired by hand: a renewal happens when the test calls `renew`, and
 * `renew` returns once it has answered and armed the next one (a lost lease arms none: `renew`
 * then returns when the next archiver step ends, see `lost`).
 */
export function handTimers() {
  let armed: (() => void) | undefined;
  let onArm: (() => void) | undefined;
  const timers: Timers = {
    set: (fire) => {
      armed = fire;
      onArm?.();
      return fire;
    },
    clear: (handle) => {
      if (handle === armed) armed = undefined;
    },
  };
  return {
    timers,
    /** Whether a renewal is armed: the archiver holds a claim and renews it. */
    get armed(): boolean {
      return armed !== undefined;
    },
    /** Fires the armed renewal; resolves when the next is armed, or at once when none was. */
    async renew(): Promise<void> {
      const fire = armed;
      if (!fire) return;
      armed = undefined;
      const rearmed = new Promise<void>((resolve) => {
        onArm = resolve;
      });
      fire();
      await rearmed;
      onArm = undefined;
    },
    /** Fires the armed renewal without waiting: one that finds the claim gone arms no other. */
    fire(): void {
      const fire = armed;
      armed = undefined;
      fire?.();
    },
  };
}

/**
 * The file store, but the first `fill` waits for `open` (or the archiver's abort): the archiver
 * holds its claim mid-store, its first file row begun. `entered` says it got there; `abortedFirst`
 * whether the abort came before the gate opened.
 */
export function gatedFiles(files: FileStore) {
  const entered = deferred();
  const open = deferred();
  const seen = { abortedFirst: false };
  const gated: FileStore = {
    ...files,
    async fill(file, source, stop) {
      entered.resolve();
      await Promise.race([open.promise, abortOf(stop)]);
      if (stop?.aborted) seen.abortedFirst = true;
      return files.fill(file, source, stop);
    },
  };
  return {
    files: gated,
    entered: entered.promise,
    open: () => {
      open.resolve();
    },
    seen,
  };
}

/**
 * `fetch`, but a result file's body stops after its first piece until `open` (a slow download
 * that stays in flight); `entered` says the download began.
 */
export function gatedDownloads(inner: typeof fetch) {
  const entered = deferred();
  const open = deferred();
  const gated: typeof fetch = async (input, init) => {
    const response = await inner(input, init);
    const path = new URL(input instanceof Request ? input.url : input.toString()).pathname;
    if (!path.startsWith("/files/") || !response.body) return response;
    entered.resolve();
    const reader = response.body.getReader();
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!first) await open.promise;
        first = false;
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: gated,
    entered: entered.promise,
    open: () => {
      open.resolve();
    },
  };
}

/** An archiver of the instance's own (not its started one) with these fakes; no rounds of its own. */
export function ownArchiver(
  instance: TestInstance,
  fakes: { timers: Timers; files?: FileStore; fetch?: typeof fetch },
): Archiver {
  const { deps } = instance.backend;
  return createArchiver(createTaskRecord(deps), deps, {
    files: fakes.files ?? deps.services.archive.files,
    fetch: fakes.fetch ?? deps.fetch,
    timers: fakes.timers,
  });
}
