import { serialQueue } from "./serial.ts";

/**
 * Result audio the background already fetched, kept in the Cache API so that playing a track
 * again (in this view or a later one) transfers nothing. Bounded in bytes; when a new track does
 * not fit, the tracks stored first go first. A track larger than the whole bound is not kept.
 */

/** The part of `CacheStorage` used here (tests pass an in-memory one). */
export interface CacheStorageLike {
  open(name: string): Promise<CacheLike>;
  delete(name: string): Promise<boolean>;
}
export interface CacheLike {
  match(request: Request): Promise<Response | undefined>;
  put(request: Request, response: Response): Promise<void>;
  delete(request: Request): Promise<boolean>;
  /** In insertion order (the Cache API's request list is ordered). */
  keys(): Promise<readonly Request[]>;
}

export const AUDIO_CACHE_NAME = "overture-audio-v1";
/** About four 240 s tracks as WAV, or an hour of the compressed rendition. */
export const AUDIO_CACHE_MAX_BYTES = 200 * 1024 * 1024;
// Cache API keys must be http(s) URLs; `.invalid` can never resolve, so nothing is ever fetched.
const KEY_ORIGIN = "https://audio.overture.invalid";
const SIZE_HEADER = "X-Overture-Size";

export interface CachedAudio {
  bytes: Uint8Array<ArrayBuffer>;
  mime: string;
}

export interface AudioCache {
  get(backend: string, taskId: string): Promise<CachedAudio | null>;
  /**
   * Stores a track (a Blob: its parts need not be joined in memory first), evicting the oldest
   * tracks first; answers whether it was kept.
   */
  put(backend: string, taskId: string, audio: Blob): Promise<boolean>;
  /** Forgets one track (its owner deleted it). */
  delete(backend: string, taskId: string): Promise<void>;
  /** Forgets every track (sign-out, another backend). */
  clear(): Promise<void>;
}

/** The key of one task's audio: per backend, since two backends may use the same task id. */
function keyOf(backend: string, taskId: string): Request {
  return new Request(`${KEY_ORIGIN}/${encodeURIComponent(backend)}/${encodeURIComponent(taskId)}`);
}

export function createAudioCache(
  storage: CacheStorageLike | null,
  maxBytes = AUDIO_CACHE_MAX_BYTES,
): AudioCache {
  // Where the Cache API is missing (it is in every supported browser), nothing is kept.
  if (!storage)
    return {
      get: () => Promise.resolve(null),
      put: () => Promise.resolve(false),
      delete: () => Promise.resolve(),
      clear: () => Promise.resolve(),
    };
  const open = () => storage.open(AUDIO_CACHE_NAME);
  // One write at a time, so two tracks finishing together cannot both count the same free room.
  const serial = serialQueue();

  async function sizes(cache: CacheLike): Promise<{ request: Request; size: number }[]> {
    const list = [];
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      list.push({ request, size: Number(response?.headers.get(SIZE_HEADER)) || 0 });
    }
    return list;
  }

  return {
    async get(backend, taskId) {
      const response = await (await open()).match(keyOf(backend, taskId));
      if (!response) return null;
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { bytes, mime: response.headers.get("Content-Type") ?? "audio/wav" };
    },
    put: (backend, taskId, audio) =>
      serial(async () => {
        const size = audio.size;
        if (size > maxBytes) return false;
        const cache = await open();
        const key = keyOf(backend, taskId);
        await cache.delete(key);
        const entries = await sizes(cache);
        let used = entries.reduce((sum, entry) => sum + entry.size, 0);
        for (const entry of entries) {
          if (used + size <= maxBytes) break;
          await cache.delete(entry.request);
          used -= entry.size;
        }
        const headers = { "Content-Type": audio.type, [SIZE_HEADER]: String(size) };
        await cache.put(key, new Response(audio, { headers }));
        return true;
      }),
    delete: (backend, taskId) =>
      serial(async () => {
        await (await open()).delete(keyOf(backend, taskId));
      }),
    clear: () =>
      serial(async () => {
        await storage.delete(AUDIO_CACHE_NAME);
      }),
  };
}

/** The browser's Cache API, where the page or worker has it. */
export function browserCacheStorage(): CacheStorageLike | null {
  return typeof caches === "undefined" ? null : caches;
}
