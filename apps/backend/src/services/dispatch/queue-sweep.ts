import { and, eq, lt } from "drizzle-orm";
import { tasks } from "../../db/schema/index.ts";
import type { DispatchDeps } from "./deps.ts";
import { UNKNOWN_SUBMIT_MESSAGE } from "./submit.ts";

/**
 * Turns `submitting` rows orphaned by a crash (older than `staleSubmitMs`) into `unknown`: never
 * resubmitted blindly (the platform may have created the task). A hundred per call; returns how
 * many it changed. Part of every queue round (queue.ts).
 */
export async function sweepStaleSubmits(
  deps: DispatchDeps,
  staleSubmitMs: number,
): Promise<number> {
  const { db, clock } = deps;
  const cutoff = new Date(clock.now() - staleSubmitMs);
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(tasks)
      .where(and(eq(tasks.status, "submitting"), lt(tasks.submitStartedAt, cutoff)))
      .limit(100)
      .for("update", { skipLocked: true });
    const now = new Date(clock.now());
    const changed = rows.map((row) => ({
      ...row,
      status: "unknown" as const,
      error: UNKNOWN_SUBMIT_MESSAGE,
      updatedAt: now,
    }));
    await deps.record.save(tx, changed, "worker");
    return changed.length;
  });
}
