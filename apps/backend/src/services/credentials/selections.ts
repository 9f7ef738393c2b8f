import { eq } from "drizzle-orm";
import { tokenSelections } from "../../db/schema/index.ts";
import { ApiError } from "../../lib/errors.ts";
import type { AccessTokenCatalog } from "./access-tokens.ts";
import { ACCESS_TOKEN_NOT_FOUND } from "../../schemas/error-codes.ts";
import { storableText } from "../../lib/storable.ts";
import type { AppDatabase } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";

/** The access token a user chose for tasks (one per user). */
export interface Selection {
  namespace: string;
  tokenId: number;
  tokenName: string;
  usageScenario: string;
}

export interface SelectionDeps {
  db: AppDatabase;
  clock: Clock;
}

export function createSelectionService({ db, clock }: SelectionDeps, catalog: AccessTokenCatalog) {
  return {
    async get(userId: number): Promise<Selection | null> {
      const [row] = await db
        .select({
          namespace: tokenSelections.namespace,
          tokenId: tokenSelections.tokenId,
          tokenName: tokenSelections.tokenName,
          usageScenario: tokenSelections.usageScenario,
        })
        .from(tokenSelections)
        .where(eq(tokenSelections.userId, userId))
        .limit(1);
      return row ?? null;
    },

    /**
     * Chooses `tokenId` in `namespace` after checking with the platform that it is listed there
     * (its name and usage scenario are copied for display). Replaces the previous choice.
     */
    async set(userId: number, namespace: string, tokenId: number): Promise<Selection> {
      const tokens = await catalog.list(userId, namespace);
      const token = tokens.find((t) => t.id === tokenId);
      if (!token) {
        throw new ApiError(
          404,
          ACCESS_TOKEN_NOT_FOUND,
          `Namespace "${namespace}" has no access token with id ${tokenId}; pick one from its token list.`,
        );
      }
      const selection: Selection = {
        namespace,
        tokenId,
        tokenName: storableText(token.name), // platform text: kept, U+FFFD for what cannot be stored
        usageScenario: token.usage_scenario,
      };
      const values = { ...selection, updatedAt: new Date(clock.now()) };
      await db
        .insert(tokenSelections)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: tokenSelections.userId, set: values });
      return selection;
    },
  };
}

export type SelectionService = ReturnType<typeof createSelectionService>;
