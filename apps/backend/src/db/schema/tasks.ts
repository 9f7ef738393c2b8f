import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { ARCHIVE_STATES, TASK_STATES } from "../../schemas/task-states.ts";
import { users } from "./users.ts";

export const tasks = pgTable(
  "tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    namespace: text("namespace").notNull(),
    tokenId: bigint("token_id", { mode: "number" }).notNull(),
    status: text("status", { enum: TASK_STATES }).notNull(),
    platformTaskId: text("platform_task_id").unique(),
    /** SHA-256 of the per-task key carried in the callback URL's `k` parameter. */
    webhookKeyHash: text("webhook_key_hash").unique(),
    webhookExpected: boolean("webhook_expected").notNull().default(false),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    /** The library's name of the track: the start of the prompt until the owner renames it. */
    title: text("title").notNull().default(""),
    favourite: boolean("favourite").notNull().default(false),
    /** Deleted by its owner: hidden at once, purged (row and archived audio) after the undo window. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    output: jsonb("output").$type<Record<string, unknown>>(),
    usageInfo: jsonb("usage_info").$type<Record<string, unknown>>(),
    /** What the platform charged (its task record's `price` and `currency`), when it says. */
    price: doublePrecision("price"),
    currency: text("currency"),
    error: text("error"),
    /** A status string the platform sent that the spec does not list (kept, never applied). */
    unknownStatus: text("unknown_status"),
    fileUrl: text("file_url"),
    fileExpiresAt: timestamp("file_expires_at", { withTimezone: true }),
    /**
     * `pending` while the result still has to be downloaded (its files: `archive_files`);
     * `expired` once retention removed them.
     */
    archiveStatus: text("archive_status", { enum: ARCHIVE_STATES }),
    /** Why archiving failed, as an error code (`archive_quota_exceeded`…). */
    archiveError: text("archive_error"),
    archiveAttempts: integer("archive_attempts").notNull().default(0),
    /** When the archiver may next try (also its lease while it works, renewed by its heartbeat). */
    archiveNextAt: timestamp("archive_next_at", { withTimezone: true }),
    /** Whose lease that is: each claim writes a new one, so a lost claimer can tell (archive/leases.ts). */
    archiveClaim: uuid("archive_claim"),
    cancelRequestedAt: timestamp("cancel_requested_at", { withTimezone: true }),
    /** When the current submit attempt began: a `submitting` row much older than this was orphaned by a crash. */
    submitStartedAt: timestamp("submit_started_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** Last time the platform told us anything about this task (webhook or poll). */
    lastEventAt: timestamp("last_event_at", { withTimezone: true }),
    /**
     * When the reconciler should poll next; null once terminal. On a `queued` task: until when a
     * refused submit's `Retry-After` holds the account's queue (dispatch/queue.ts), null if it does not.
     */
    nextPollAt: timestamp("next_poll_at", { withTimezone: true }),
    pollCount: integer("poll_count").notNull().default(0),
    /** Consecutive failed polls (exponential back-off); reset by any successful report. */
    pollErrors: integer("poll_errors").notNull().default(0),
  },
  (t) => [
    // Keyset pages of `GET /api/tasks`: newest first, ties broken by id. NULLS FIRST is what a
    // plain `ORDER BY … DESC` means; with drizzle's default NULLS LAST the planner sorts instead.
    index("tasks_user_created_idx").on(
      t.userId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The library sorted by title, and its favourites newest first (keyset pages, see tasks/list.ts).
    index("tasks_user_title_idx").on(t.userId, sql`lower(${t.title})`, t.id),
    index("tasks_user_favourite_idx")
      .on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.favourite}`),
    // The purge of deleted tasks once their undo window has passed.
    index("tasks_deleted_idx")
      .on(t.deletedAt)
      .where(sql`${t.deletedAt} is not null`),
    index("tasks_poll_idx")
      .on(t.nextPollAt)
      .where(sql`${t.nextPollAt} is not null`),
    index("tasks_queued_idx")
      .on(t.userId, t.namespace, t.createdAt)
      .where(sql`${t.status} = 'queued'`),
    index("tasks_submitting_idx")
      .on(t.submitStartedAt)
      .where(sql`${t.status} = 'submitting'`),
    index("tasks_archive_idx")
      .on(t.archiveNextAt)
      .where(sql`${t.archiveStatus} = 'pending'`),
  ],
);

/** A task as stored. */
export type TaskRow = typeof tasks.$inferSelect;

/**
 * Webhook deliveries accepted, one row per `event_id` (spec 6 rule 3: idempotent receiver).
 *
 * This table and `task_events` hang from a task without a foreign key: they are written only by
 * the transaction that holds the task's row lock (the intake's batches, polls, submit, cancel),
 * so the task exists when they are, and the per-row check a foreign key makes on every insert
 * was the largest share of the intake's append. Deleting tasks deletes their rows of both, once
 * per statement, by the trigger `tasks_delete_events` (migration 0005).
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    eventId: text("event_id").primaryKey(),
    taskId: uuid("task_id").notNull(),
    status: text("status").notNull(),
    signedAt: bigint("signed_at", { mode: "number" }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Retention deletes by age.
  (t) => [index("webhook_events_received_idx").on(t.receivedAt)],
);

export const TASK_EVENT_SOURCES = ["api", "webhook", "poll", "queue", "worker"] as const;
export type TaskEventSource = (typeof TASK_EVENT_SOURCES)[number];

/**
 * Every accepted change of a task, numbered. The id is what `/api/events` sends as the SSE id and
 * what `Last-Event-ID` resumes from; ids are assigned in commit order (see services/events).
 */
export const taskEvents = pgTable(
  "task_events",
  {
    // bigint, not number: ids pass 2^53, where a JavaScript number stops holding every integer.
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    // No foreign keys (see webhookEvents): a user's tasks are deleted with the user, and their
    // events with them.
    userId: bigint("user_id", { mode: "number" }).notNull(),
    taskId: uuid("task_id").notNull(),
    status: text("status").notNull(),
    source: text("source", { enum: TASK_EVENT_SOURCES }).notNull(),
    /** The task's JSON (`toTaskJson`) right after the change: live-event fan-out and replay read
     * only this row, never the task. */
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("task_events_user_idx").on(t.userId, t.id),
    index("task_events_created_idx").on(t.createdAt),
  ],
);

/**
 * Where the task_events log has been cut, in its one row: the highest id retention deleted
 * (`pruned_through`) and the highest id deleted at all (`deleted_through`, also when a task's
 * events go with it). A client resuming from an id below `pruned_through` would miss events, and
 * one above every id the database ever held comes from another database (a backup restored
 * since): services/events/position.ts tells both apart. Written only by the trigger
 * `task_events_marks` (migration 0006), in the transaction that deletes, so a reader sees the marks
 * and the rows agree; never by the application, so an operator's own DELETE counts too.
 */
export const taskEventMarks = pgTable(
  "task_event_marks",
  {
    id: smallint("id").primaryKey().default(1),
    prunedThrough: bigint("pruned_through", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    deletedThrough: bigint("deleted_through", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
  },
  (t) => [check("task_event_marks_one_row", sql`${t.id} = 1`)],
);

/** Webhook deliveries refused, with the reason, for the owner's troubleshooting (spec 6 rule 5). */
export const webhookRejections = pgTable(
  "webhook_rejections",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: bigint("user_id", { mode: "number" }).references(() => users.id, {
      onDelete: "cascade",
    }),
    taskId: uuid("task_id").references(() => tasks.id, { onDelete: "cascade" }),
    /** Core's failure code (`WEBHOOK_SIGNATURE_MISMATCH`…) or the intake's own (`malformed_body`). */
    reason: text("reason").notNull(),
    message: text("message").notNull(),
    /** The status the delivery was answered with (401 or 400). */
    httpStatus: integer("http_status").notNull(),
    diagnoses: jsonb("diagnoses").$type<{ code: string; message: string }[]>(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_rejections_user_idx").on(t.userId, t.id),
    index("webhook_rejections_received_idx").on(t.receivedAt),
  ],
);
