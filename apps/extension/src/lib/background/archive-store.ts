import type { Waveform } from "../shared/peaks.ts";
import type { MediaLink } from "../shared/types.ts";
import type { CacheStorageLike } from "./audio-cache.ts";
import { serialQueue } from "./serial.ts";

// The background's memory of archived results (waveforms, media links), built by context.ts;
// archive.ts reads through it with the context.
export const PEAKS_CACHE_NAME = "overture-peaks-v1";
/** Waveforms kept (about 1 KB each): past that, the ones stored first go first. */
export const PEAKS_CACHE_MAX_ENTRIES = 2000;
// Cache API keys must be http(s) URLs; `.invalid` can never resolve, so nothing is ever fetched.
const KEY_ORIGIN = "https://peaks.overture.invalid";
/** A media link is reused until this long before it expires (a track is rarely longer). */
const LINK_MARGIN_MS = 30 * 60_000;

const keyOf = (backend: string, taskId: string) =>
  new Request(`${KEY_ORIGIN}/${encodeURIComponent(backend)}/${encodeURIComponent(taskId)}`);

/**
 * Waveforms of archived results, reduced to the bars the views draw. An archived file never
 * changes, so a waveform fetched once is kept (Cache API, bounded by count) and a view opened
 * later asks the network for nothing.
 */
export function createPeaksStore(storage: CacheStorageLike | null) {
  const serial = serialQueue();
  const open = () => storage?.open(PEAKS_CACHE_NAME);
  return {
    async get(backend: string, taskId: string): Promise<Waveform | null> {
      const response = await (await open())?.match(keyOf(backend, taskId));
      return response ? ((await response.json()) as Waveform) : null;
    },
    put: (backend: string, taskId: string, waveform: Waveform): Promise<void> =>
      serial(async () => {
        const cache = await open();
        if (!cache) return;
        const keys = await cache.keys();
        for (const stale of keys.slice(0, Math.max(0, keys.length - PEAKS_CACHE_MAX_ENTRIES + 1)))
          await cache.delete(stale);
        await cache.put(keyOf(backend, taskId), Response.json(waveform));
      }),
    /** Forgets one waveform (its track was deleted). */
    delete: (backend: string, taskId: string): Promise<void> =>
      serial(async () => {
        await (await open())?.delete(keyOf(backend, taskId));
      }),
    async clear(): Promise<void> {
      await storage?.delete(PEAKS_CACHE_NAME);
    },
  };
}

export type PeaksStore = ReturnType<typeof createPeaksStore>;

/**
 * Media links, one per task and format, reused while they last: the same URL each time lets the
 * browser's media cache answer a replay or a seek into bytes it already has.
 */
export function createMediaLinkMemo() {
  const links = new Map<string, MediaLink>();
  // Asked for and not answered yet: a click right after the hover that asked waits for that one.
  const pending = new Map<string, Promise<MediaLink>>();
  return {
    get(key: string, now: number, issue: () => Promise<MediaLink>): Promise<MediaLink> {
      const known = links.get(key);
      if (known && Date.parse(known.expires_at) - LINK_MARGIN_MS > now)
        return Promise.resolve(known);
      const asked = pending.get(key);
      if (asked) return asked;
      const link = issue()
        .then((issued) => {
          links.set(key, issued);
          return issued;
        })
        .finally(() => pending.delete(key));
      pending.set(key, link);
      return link;
    },
    /** Forgets every link whose key starts with `prefix` (one track's, in each format). */
    forget: (prefix: string) => {
      for (const key of [...links.keys(), ...pending.keys()])
        if (key.startsWith(prefix)) {
          links.delete(key);
          pending.delete(key);
        }
    },
    clear: () => {
      links.clear();
      pending.clear();
    },
  };
}

export type MediaLinkMemo = ReturnType<typeof createMediaLinkMemo>;
