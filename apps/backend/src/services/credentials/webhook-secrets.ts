import { and, eq, sql } from "drizzle-orm";
import { WEBHOOK_SECRETS_CHANGED_CHANNEL } from "../../db/channels.ts";
import { webhookSecrets } from "../../db/schema/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { INVALID_SECRET } from "../../schemas/error-codes.ts";
import type { AppDatabase } from "../../db/client.ts";
import { VaultError, type Vault } from "../../lib/vault.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Config } from "../../env/env.ts";

export const WEBHOOK_SECRET_MAX_LENGTH = 512;

export interface WebhookSecretStatus {
  configured: boolean;
  updated_at: Date | null;
  /** Until when the secret replaced by the last reset is still accepted; null when none is. */
  previous_valid_until: Date | null;
}

/**
 * Why a secret cannot be stored, or undefined when it can. Surrounding whitespace is refused,
 * not trimmed: the platform's secret has none, so it is a copy-paste slip, and signatures made
 * with the real secret would never verify against the padded one.
 */
export function webhookSecretProblem(secret: string): string | undefined {
  if (secret.length === 0)
    return "The webhook secret is empty; paste the secret shown after a reset in the console.";
  if (secret.length > WEBHOOK_SECRET_MAX_LENGTH) {
    return `The webhook secret is longer than ${WEBHOOK_SECRET_MAX_LENGTH} characters; paste only the secret itself.`;
  }
  if (secret.trim() !== secret) {
    return "The webhook secret starts or ends with whitespace (a space, tab or line break), which the platform's secrets never do: copy it again without the surrounding blanks.";
  }
  return undefined;
}

// Both columns share one context (the row): a reset moves the current ciphertext into the
// previous column as is, which a column-bound context would make unreadable.
export const webhookSecretContext = (userId: number, namespace: string) =>
  `webhook-secret:${userId}:${namespace}`;

export interface WebhookSecretDeps {
  db: AppDatabase;
  vault: Vault;
  clock: Clock;
  config: Config;
}

/**
 * Webhook secrets per (user, account namespace), entered by the user, sealed at rest and never
 * returned by the API. After a reset the previous secret stays valid for the configured grace
 * (`WEBHOOK_SECRET_GRACE_SECONDS`): the platform may still retry deliveries signed before it.
 */
export function createWebhookSecretService(deps: WebhookSecretDeps) {
  const { db, vault, clock } = deps;

  async function read(userId: number, namespace: string) {
    const [row] = await db.select().from(webhookSecrets).where(key(userId, namespace)).limit(1);
    return row;
  }

  const previousLive = (until: Date | null) => until !== null && until.getTime() > clock.now();

  // Told after a secret is saved or cleared: this instance's webhook intake drops what it cached
  // now, the others when the notification reaches them.
  const changeListeners: ((userId: number, namespace: string) => void)[] = [];
  const changed = async (userId: number, namespace: string) => {
    for (const listener of changeListeners) listener(userId, namespace);
    await db.execute(
      sql`select pg_notify(${WEBHOOK_SECRETS_CHANGED_CHANNEL}, ${`${userId}:${namespace}`})`,
    );
  };

  return {
    async set(userId: number, namespace: string, secret: string): Promise<void> {
      const problem = webhookSecretProblem(secret);
      if (problem) throw new ApiError(400, INVALID_SECRET, problem);
      await saveSecret(deps, userId, namespace, secret);
      await changed(userId, namespace);
    },

    /** Forgets the secret (and any previous one): deliveries for this account stop verifying. */
    async clear(userId: number, namespace: string): Promise<void> {
      await db.delete(webhookSecrets).where(key(userId, namespace));
      await changed(userId, namespace);
    },

    /**
     * Calls `listener` after this instance saved or cleared a secret. Other instances hear of it
     * on `WEBHOOK_SECRETS_CHANGED_CHANNEL` (services/intake/index.ts).
     */
    onChange(listener: (userId: number, namespace: string) => void): void {
      changeListeners.push(listener);
    },

    async status(userId: number, namespace: string): Promise<WebhookSecretStatus> {
      const row = await read(userId, namespace);
      if (!row) return { configured: false, updated_at: null, previous_valid_until: null };
      return {
        configured: true,
        updated_at: row.updatedAt,
        previous_valid_until:
          row.previousSecretEnc && previousLive(row.previousValidUntil)
            ? row.previousValidUntil
            : null,
      };
    },

    /** The secrets a delivery may be signed with now: the current one, and the previous during its grace. */
    async secretsFor(
      userId: number,
      namespace: string,
    ): Promise<{ current: string | null; previous: string | null; former: string[] }> {
      const row = await read(userId, namespace);
      if (!row) return { current: null, previous: null, former: [] };
      const prior = row.previousSecretEnc
        ? vault.open(row.previousSecretEnc, webhookSecretContext(userId, namespace))
        : null;
      // Past its grace period the previous secret no longer verifies anything, but a signature
      // that matches it tells the owner the platform still signs with an outdated secret.
      const live = previousLive(row.previousValidUntil);
      return {
        current: vault.open(row.secretEnc, webhookSecretContext(userId, namespace)),
        previous: live ? prior : null,
        former: !live && prior ? [prior] : [],
      };
    },

    async has(userId: number, namespace: string): Promise<boolean> {
      const [row] = await db
        .select({ userId: webhookSecrets.userId })
        .from(webhookSecrets)
        .where(key(userId, namespace))
        .limit(1);
      return row !== undefined;
    },
  };
}

const key = (userId: number, namespace: string) =>
  and(eq(webhookSecrets.userId, userId), eq(webhookSecrets.namespace, namespace));

/** A sealed secret, opened; undefined when no listed key opens it. */
function openOrUndefined(vault: Vault, sealed: string, context: string): string | undefined {
  try {
    return vault.open(sealed, context);
  } catch (error) {
    if (error instanceof VaultError) return undefined;
    throw error;
  }
}

/**
 * Stores the account's secret, sealed; a different secret keeps the one it replaces as the
 * previous one for the grace period (WEBHOOK_SECRET_GRACE_SECONDS).
 */
async function saveSecret(
  deps: Pick<WebhookSecretDeps, "db" | "vault" | "clock" | "config">,
  userId: number,
  namespace: string,
  secret: string,
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(webhookSecrets)
      .where(key(userId, namespace))
      .for("update");
    const sealed = deps.vault.seal(secret, webhookSecretContext(userId, namespace));
    if (!row) {
      await tx
        .insert(webhookSecrets)
        .values({ userId, namespace, secretEnc: sealed, updatedAt: new Date(now) })
        .onConflictDoUpdate({
          target: [webhookSecrets.userId, webhookSecrets.namespace],
          set: { secretEnc: sealed, updatedAt: new Date(now) },
        });
      return;
    }
    // A stored secret that opens with no listed key (one removed too early, damaged data)
    // is replaced and not kept as the previous one: it verifies nothing, and saving anew is
    // how its owner resolves what `overture-backend reseal` reports.
    const stored = openOrUndefined(
      deps.vault,
      row.secretEnc,
      webhookSecretContext(userId, namespace),
    );
    // Saving the same secret again is not a reset: keep the previous one as it was.
    await tx
      .update(webhookSecrets)
      .set(
        stored === secret
          ? { updatedAt: new Date(now) }
          : stored === undefined
            ? {
                secretEnc: sealed,
                previousSecretEnc: null,
                previousValidUntil: null,
                updatedAt: new Date(now),
              }
            : {
                secretEnc: sealed,
                previousSecretEnc: row.secretEnc,
                previousValidUntil: new Date(now + deps.config.webhook.secretGraceMs),
                updatedAt: new Date(now),
              },
      )
      .where(key(userId, namespace));
  });
}

export type WebhookSecretService = ReturnType<typeof createWebhookSecretService>;
