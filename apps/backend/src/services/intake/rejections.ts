import { and, desc, eq, lt } from "drizzle-orm";
import { errorMessage } from "../../lib/error-summary.ts";
import type { AppDatabase } from "../../db/client.ts";
import { tasks, webhookRejections } from "../../db/schema/index.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { RejectionPage } from "../../schemas/rejections.ts";

export interface Rejection {
  userId: number;
  taskId: string;
  /** Core's failure code or the intake's own (`malformed_body`, `task_mismatch`, `no_secret`). */
  reason: string;
  message: string;
  diagnoses?: readonly { code: string; message: string }[];
  httpStatus: number;
  receivedAt: Date;
}

export interface RejectionRecorderOptions {
  db: AppDatabase;
  metrics: Metrics;
  logger: Logger;
  /** Rejections kept in memory before new ones are dropped. */
  capacity?: number;
  /** Rows written per INSERT. */
  batchSize?: number;
  flushIntervalMs?: number;
}

/**
 * Records refused deliveries for the owner's troubleshooting (spec 6 rule 5) without letting a
 * flood of forged requests become a flood of writes: rejections wait in a bounded in-memory queue
 * flushed in batches by one timer; when the queue is full new ones are dropped and counted.
 * Messages and diagnoses come from core and never contain a secret.
 */
export function createRejectionRecorder(options: RejectionRecorderOptions) {
  const capacity = options.capacity ?? 1_000;
  const batchSize = options.batchSize ?? 200;
  const queue: Rejection[] = [];
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  async function writeAll(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, batchSize);
      try {
        await options.db.insert(webhookRejections).values(
          batch.map((r) => ({
            userId: r.userId,
            taskId: r.taskId,
            reason: r.reason,
            message: r.message.slice(0, 1_000),
            diagnoses: r.diagnoses && r.diagnoses.length > 0 ? [...r.diagnoses] : null,
            httpStatus: r.httpStatus,
            receivedAt: r.receivedAt,
          })),
        );
      } catch (error) {
        options.metrics.webhookOutcomes.inc(
          { outcome: "rejection_not_recorded", reason: "write_failed" },
          batch.length,
        );
        options.logger.warn(
          { err: errorMessage(error), count: batch.length },
          "webhook rejections not recorded",
        );
        return;
      }
    }
  }

  function flush(): Promise<void> {
    flushing ??= writeAll().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  return {
    record(rejection: Rejection): void {
      if (queue.length >= capacity) {
        options.metrics.webhookOutcomes.inc({
          outcome: "rejection_not_recorded",
          reason: "queue_full",
        });
        return;
      }
      queue.push(rejection);
      if (queue.length >= batchSize) void flush();
    },
    /** Writes everything queued now (tests, shutdown). */
    flush,
    start(): Promise<void> {
      timer ??= setInterval(() => void flush(), options.flushIntervalMs ?? 1_000);
      timer.unref();
      return Promise.resolve();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await flush();
    },
    /** The owner's recent rejections, newest first; `cursor` is the last id of the previous page. */
    list(userId: number, limit: number, cursor?: number): Promise<RejectionPage> {
      return listRejections(options, userId, limit, cursor);
    },
  };
}

/** The owner's recent rejections, newest first; `cursor` is the last id of the previous page. */
async function listRejections(
  options: RejectionRecorderOptions,
  userId: number,
  limit: number,
  cursor?: number,
): Promise<RejectionPage> {
  const rows = await options.db
    .select({ rejection: webhookRejections, namespace: tasks.namespace })
    .from(webhookRejections)
    .leftJoin(tasks, eq(tasks.id, webhookRejections.taskId))
    .where(
      and(
        eq(webhookRejections.userId, userId),
        cursor === undefined ? undefined : lt(webhookRejections.id, cursor),
      ),
    )
    .orderBy(desc(webhookRejections.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    rejections: page.map(({ rejection: r, namespace }) => ({
      id: r.id,
      task_id: r.taskId,
      namespace,
      reason: r.reason,
      message: r.message,
      diagnoses: r.diagnoses ?? null,
      http_status: r.httpStatus,
      received_at: r.receivedAt.toISOString(),
    })),
    next_cursor:
      rows.length > limit && page.length > 0 ? String(page[page.length - 1]?.rejection.id) : null,
  };
}

export type RejectionRecorder = ReturnType<typeof createRejectionRecorder>;
