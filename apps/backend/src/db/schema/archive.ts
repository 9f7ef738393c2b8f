import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { tasks } from "./tasks.ts";
import { users } from "./users.ts";

/** `bytea` as a Uint8Array on both drivers (pg answers a Buffer, which is one). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

export const ARCHIVE_FILE_KINDS = ["original", "rendition"] as const;
export type ArchiveFileKind = (typeof ARCHIVE_FILE_KINDS)[number];
export const ARCHIVE_STORAGES = ["postgres", "folder"] as const;
export type ArchiveStorage = (typeof ARCHIVE_STORAGES)[number];

/**
 * One stored file of a task's result: the original as the platform sent it, or the compressed
 * rendition for listening. At most one of each kind per task (a database constraint: a result is
 * archived once, whichever instance finishes first). A row is written first, `complete = false`,
 * then its chunks in small transactions (a long one would hold PGlite, and every other query,
 * for seconds), then `complete` is set in the transaction that marks the task archived: a reader
 * sees only whole files, and a crash leaves rows no reader sees, removed when the result is
 * claimed again. Files never change: the id is their ETag.
 */
export const archiveFiles = pgTable(
  "archive_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    /** The owner, for the per-user quota. */
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ARCHIVE_FILE_KINDS }).notNull(),
    contentType: text("content_type").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    /** `postgres`: in `archive_chunks`; `folder`: the file `path` inside ARCHIVE_DIR. */
    storage: text("storage", { enum: ARCHIVE_STORAGES }).notNull(),
    path: text("path"),
    /** Size of every chunk but the last (`postgres` storage): where a byte range starts. */
    chunkBytes: integer("chunk_bytes").notNull().default(0),
    /** Whole, and part of an archived result: only these are read, counted or expired. */
    complete: boolean("complete").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("archive_files_task_kind_key").on(t.taskId, t.kind),
    index("archive_files_user_idx").on(t.userId),
    index("archive_files_created_idx").on(t.createdAt),
  ],
);

export type ArchiveFileRow = typeof archiveFiles.$inferSelect;

/** The bytes of `postgres`-stored files, in fixed-size pieces numbered from 0. */
export const archiveChunks = pgTable(
  "archive_chunks",
  {
    fileId: uuid("file_id")
      .notNull()
      .references(() => archiveFiles.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

/**
 * The waveform of an archived result: `data` holds a signed 8-bit (min, max) pair per pixel of
 * `samples_per_pixel` frames, all channels mixed (the audiowaveform JSON layout, 8-bit).
 */
export const archivePeaks = pgTable("archive_peaks", {
  taskId: uuid("task_id")
    .primaryKey()
    .references(() => tasks.id, { onDelete: "cascade" }),
  sampleRate: integer("sample_rate").notNull(),
  channels: integer("channels").notNull(),
  frames: bigint("frames", { mode: "number" }).notNull(),
  samplesPerPixel: integer("samples_per_pixel").notNull(),
  data: bytea("data").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type ArchivePeaksRow = typeof archivePeaks.$inferSelect;
