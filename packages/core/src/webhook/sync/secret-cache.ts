/**
 * How many secrets' derived keys the synchronous HMACs keep. A backend verifies for every user
 * with a webhook secret: 64 entries churned with the bench's 100 users, deriving again per call.
 */
export const SECRET_CACHE_SIZE = 1024;

/**
 * A map from secret to something derived from it, keeping the last {@link SECRET_CACHE_SIZE}
 * secrets (first in, first out): `cache.get(secret) ?? cache.add(secret, derive(secret))`.
 */
export function createSecretCache<V>() {
  const entries = new Map<string, V>();
  return {
    get: (secret: string): V | undefined => entries.get(secret),
    add(secret: string, value: V): V {
      if (entries.size >= SECRET_CACHE_SIZE) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      entries.set(secret, value);
      return value;
    },
  };
}
