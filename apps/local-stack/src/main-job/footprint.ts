import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * V8 settings for the main job: one process that holds the emulator, the backend and embedded
 * Postgres, and mostly waits for one person's clicks. main-job.ts applies them before it loads
 * the rest, so `node dist/main-job.js` needs no flags (`pnpm bench`, item 7, "main job: idle RSS"):
 *  - Postgres runs as baseline (Liftoff) WebAssembly only. Recompiling its hot functions with the
 *    optimising compiler took ~80 MB of compiler memory, freed into allocator arenas the process
 *    never returns (idle RSS ~230 MB → ~150 MB here). The baseline code also opened the database
 *    sooner, and was no slower over a few thousand small queries, on this 2-core machine.
 *  - The young generation stays at its initial size instead of growing to 16 MB semi-spaces.
 */
export function useIdleFriendlyV8(): void {
  setFlagsFromString("--liftoff-only");
  setFlagsFromString("--semi-space-growth-factor=1");
}

/**
 * One full collection once start-up is over. With a small young generation, start-up garbage
 * (PGlite's 9 MB WebAssembly binary among it) is promoted and then waits for an old-generation
 * collection that an idle process does not trigger.
 */
export function collectStartUpGarbage(): void {
  setFlagsFromString("--expose-gc");
  // A fresh context is created with the flags of the moment, so it has `gc`; this one does not.
  // Should a Node.js version not honour the flag at run time, there is simply no collection.
  const gc = runInNewContext("typeof gc === 'function' ? gc : undefined") as
    (() => void) | undefined;
  gc?.();
}
