// Test-only: an in-memory Cache API (happy-dom has none), keeping insertion order like the real one.
import type { CacheLike, CacheStorageLike } from "../lib/background/audio-cache.ts";

interface Stored {
  request: Request;
  body: ArrayBuffer;
  headers: [string, string][];
  status: number;
}

export function memoryCacheStorage(): CacheStorageLike & { bytesStored(): number } {
  const caches = new Map<string, Map<string, Stored>>();
  const cacheOf = (entries: Map<string, Stored>): CacheLike => ({
    match: (request) => {
      const hit = entries.get(request.url);
      return Promise.resolve(
        hit
          ? new Response(hit.body.slice(0), { status: hit.status, headers: hit.headers })
          : undefined,
      );
    },
    put: async (request, response) => {
      const body = await response.arrayBuffer();
      entries.delete(request.url);
      entries.set(request.url, {
        request,
        body,
        headers: [...response.headers.entries()],
        status: response.status,
      });
    },
    delete: (request) => Promise.resolve(entries.delete(request.url)),
    keys: () => Promise.resolve([...entries.values()].map((entry) => entry.request)),
  });
  return {
    open: (name) => {
      let entries = caches.get(name);
      if (!entries) {
        entries = new Map<string, Stored>();
        caches.set(name, entries);
      }
      return Promise.resolve(cacheOf(entries));
    },
    delete: (name) => Promise.resolve(caches.delete(name)),
    bytesStored: () =>
      [...caches.values()]
        .flatMap((entries) => [...entries.values()])
        .reduce((sum, entry) => sum + entry.body.byteLength, 0),
  };
}
