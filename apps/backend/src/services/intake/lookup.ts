import type { Database } from "../../db/client.ts";
import { arrayLiteral, statementName, type Statement } from "../../db/script.ts";

/** The task a callback key routes to, and whose secret signs it. */
export interface WebhookTarget {
  taskId: string;
  userId: number;
  namespace: string;
  /** Null while the submit is in flight (the first callback can beat the submit response). */
  platformTaskId: string | null;
}

export interface WebhookSecretSource {
  secretsFor(
    userId: number,
    namespace: string,
  ): Promise<{
    current: string | null;
    previous: string | null;
    former?: readonly string[] | null;
  }>;
}

export interface SecretSet {
  /** Accepted secrets: the current one, then the previous one while in its grace period. */
  valid: string[];
  /** No longer accepted; only used to explain a mismatch (`FORMER_SECRET_MATCHES`). */
  former: string[];
}

interface Waiter {
  resolve: (target: WebhookTarget | undefined) => void;
  reject: (error: unknown) => void;
}

const MAX_KEYS_PER_QUERY = 500;

const TARGETS_TEXT = `select webhook_key_hash, id, user_id, namespace, platform_task_id
  from tasks where webhook_key_hash = any($1::text[])`;
const TARGETS_NAME = statementName("overture_intake_targets", TARGETS_TEXT);

interface TargetRow {
  webhook_key_hash: string;
  id: string;
  user_id: string | number;
  namespace: string;
  platform_task_id: string | null;
}

/** Key hashes are SHA-256 in lowercase hex: anything else is no task's, and never read. */
const KEY_HASH = /^[0-9a-f]{64}$/;

/** The tasks of some key hashes (hex: nothing to escape in the array literal). */
const targetsStatement = (keyHashes: readonly string[]): Statement => ({
  name: TARGETS_NAME,
  text: TARGETS_TEXT,
  params: [arrayLiteral(keyHashes)],
});

/** A small map with a time-to-live and a size cap (oldest entries go first). */
class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

/**
 * The intake's reads, cached in memory for a short time so a burst of deliveries costs no
 * lookups: task key hash → task and owner, and (owner, namespace) → secrets. Misses are read in
 * batches. Unknown keys are not cached (a flood of random keys would only evict real entries; it
 * costs one query per event-loop turn, not one per request). A secret saved or cleared on this
 * instance is dropped from the cache at once; on another instance it lives out `secretTtlMs`.
 */
export function createIntakeLookup(options: {
  /** Runs the read of the targets, prepared once (it is made for most first callbacks). */
  database: Pick<Database, "query">;
  secrets: () => WebhookSecretSource;
  /** Clock of cache freshness (ms). */
  now: () => number;
  targetTtlMs?: number;
  secretTtlMs?: number;
}) {
  const { now } = options;
  const targets = new TtlCache<WebhookTarget>(options.targetTtlMs ?? 60_000, 20_000, now);
  const secrets = secretCache(options);

  // Cache misses that arrive in one turn of the event loop share one query (a burst of first
  // callbacks of many tasks costs one round trip, not one each).
  let pending = new Map<string, Waiter[]>();
  let scheduled = false;

  async function loadTargets(): Promise<void> {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    const keys = [...batch.keys()].filter((key) => KEY_HASH.test(key));
    try {
      const found = await readTargets(options.database, keys);
      for (const [keyHash, waiters] of batch) {
        const target = found.get(keyHash);
        if (target) targets.set(keyHash, target);
        for (const waiter of waiters) waiter.resolve(target);
      }
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }

  return {
    /** Whether keys wait for the read that the next turn of the event loop makes. */
    get waiting(): boolean {
      return scheduled;
    },
    target(keyHash: string): Promise<WebhookTarget | undefined> {
      const cached = targets.get(keyHash);
      if (cached) return Promise.resolve(cached);
      return new Promise((resolve, reject) => {
        const waiters = pending.get(keyHash);
        if (waiters) waiters.push({ resolve, reject });
        else pending.set(keyHash, [{ resolve, reject }]);
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void loadTargets());
        }
      });
    },
    /** Remembers the task of a key this instance just issued, so that its first callback here
     * costs no read (the platform may call back before the submit's answer: no platform id). */
    prime(keyHash: string, target: WebhookTarget): void {
      targets.set(keyHash, target);
    },
    /** Remembers the platform id a callback proved (the submit response may still be on its way). */
    adopt(keyHash: string, target: WebhookTarget, platformTaskId: string): void {
      if (!target.platformTaskId) targets.set(keyHash, { ...target, platformTaskId });
    },
    /** Secrets from the cache when fresh; `cached` says whether a reload might tell more. */
    async secrets(userId: number, namespace: string): Promise<{ set: SecretSet; cached: boolean }> {
      const cached = secrets.cached(userId, namespace);
      if (cached) return { set: cached, cached: true };
      return { set: await secrets.load(userId, namespace), cached: false };
    },
    /** Drops the cached secrets of an account (its owner just saved or cleared one). */
    forgetSecrets(userId: number, namespace: string): void {
      secrets.forget(userId, namespace);
    },
    /** Reads the secrets again. Only a delivery carrying a valid task key gets here, and keys are
     * known only to the platform, so this is not a read-per-forged-request vector. */
    async reloadSecrets(userId: number, namespace: string): Promise<SecretSet> {
      return secrets.load(userId, namespace);
    },
  };
}

/** The secrets a delivery for the account may be signed with, as verification takes them. */
async function readSecretSet(
  source: WebhookSecretSource,
  userId: number,
  namespace: string,
): Promise<SecretSet> {
  const found = await source.secretsFor(userId, namespace);
  const valid = [found.current, found.previous].filter(
    (s): s is string => typeof s === "string" && s.length > 0,
  );
  const former = (found.former ?? []).filter((s) => s.length > 0 && !valid.includes(s));
  return { valid, former };
}

/** The tasks waiting for callbacks with these key hashes, by key hash. */
async function readTargets(
  database: Pick<Database, "query">,
  keys: readonly string[],
): Promise<Map<string, WebhookTarget>> {
  const found = new Map<string, WebhookTarget>();
  for (let from = 0; from < keys.length; from += MAX_KEYS_PER_QUERY) {
    const rows = await database.query<TargetRow>(
      targetsStatement(keys.slice(from, from + MAX_KEYS_PER_QUERY)),
    );
    for (const row of rows) {
      found.set(row.webhook_key_hash, {
        taskId: row.id,
        userId: Number(row.user_id), // bigint: text from node-postgres
        namespace: row.namespace,
        platformTaskId: row.platform_task_id,
      });
    }
  }
  return found;
}

/** The accounts' secret sets, cached for `secretTtlMs`, each read once however many wait for it. */
function secretCache(options: {
  secrets: () => WebhookSecretSource;
  now: () => number;
  secretTtlMs?: number;
}) {
  const secretSets = new TtlCache<SecretSet>(options.secretTtlMs ?? 30_000, 20_000, options.now);

  // Reads in flight by account: the deliveries that miss the cache while one is on its way wait
  // for it instead of each reading again. Without this, a cold cache under load (an instance
  // that just started) sends a read per delivery until the first answers, and those reads fill
  // the pool that the batches need.
  const secretReads = new Map<string, Promise<SecretSet>>();

  function loadSecrets(userId: number, namespace: string): Promise<SecretSet> {
    const key = `${userId}:${namespace}`;
    const inFlight = secretReads.get(key);
    if (inFlight) return inFlight;
    const read = readSecretSet(options.secrets(), userId, namespace).then(
      (set) => {
        // Forgotten meanwhile (the owner saved a new secret): answer it, but do not cache it.
        if (secretReads.get(key) === read) {
          secretReads.delete(key);
          secretSets.set(key, set);
        }
        return set;
      },
      (error: unknown) => {
        if (secretReads.get(key) === read) secretReads.delete(key);
        throw error;
      },
    );
    secretReads.set(key, read);
    return read;
  }

  return {
    cached: (userId: number, namespace: string) => secretSets.get(`${userId}:${namespace}`),
    load: loadSecrets,
    forget(userId: number, namespace: string): void {
      secretSets.delete(`${userId}:${namespace}`);
      secretReads.delete(`${userId}:${namespace}`); // a read already on its way may be stale
    },
  };
}

export type IntakeLookup = ReturnType<typeof createIntakeLookup>;
