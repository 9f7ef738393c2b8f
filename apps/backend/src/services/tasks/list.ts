import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import { tasks, type TaskRow } from "../../db/schema/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { isStorableText } from "../../schemas/common.ts";
import { INVALID_CURSOR } from "../../schemas/error-codes.ts";
import type { LibrarySort } from "../../schemas/library.ts";
import type { TaskState } from "../../schemas/task-states.ts";

export interface ListQuery {
  statuses?: readonly TaskState[];
  /** Words to find in the title, prompt or lyrics (case-insensitive, as typed). */
  search?: string;
  favourite?: boolean;
  sort?: LibrarySort;
  cursor?: string;
  limit: number;
}

/** Where a page ended: the sort key of its last row and the row's id (ties). */
interface Cursor {
  sort: LibrarySort;
  key: string;
  id: string;
}

/**
 * Each field of a cursor is checked as strictly as the column it is compared with, so a tampered
 * one is a 400 and never reaches Postgres (which would refuse it: a 500). Checked, not signed:
 * a cursor is no authority (it only says where to resume among the caller's own rows) and a
 * signature would tie every open page to the encryption keys, for no gain once each value is
 * one the column holds.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What `Date.toISOString()` writes for years 1–9999; Postgres has no year 0. */
const ISO_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** `lower(title)` of a title of at most 200 characters, with room for case mappings that grow. */
const MAX_TITLE_KEY_LENGTH = 1_000;
/** Past anything `encodeCursor` writes (a title key JSON-escaped, then base64): not decoded. */
const MAX_CURSOR_LENGTH = 8_192;

/** A time the API wrote: its exact form, and a real date (`2024-02-30` would round-trip to March). */
const isCursorTime = (key: string) => ISO_TIME.test(key) && new Date(key).toISOString() === key;

const isTitleKey = (key: string) => key.length <= MAX_TITLE_KEY_LENGTH && isStorableText(key);

/** `titleKey`: Postgres' `lower(title)` (JavaScript lower-cases some characters differently). */
function encodeCursor(sort: LibrarySort, row: TaskRow, titleKey: string): string {
  const key = sort === "title" ? titleKey : row.createdAt.toISOString();
  return Buffer.from(JSON.stringify([sort, key, row.id])).toString("base64url");
}

function decodeCursor(cursor: string, sort: LibrarySort): Cursor {
  let parsed: unknown;
  try {
    if (cursor.length > MAX_CURSOR_LENGTH) throw new RangeError("too long for a cursor");
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const [s, key, id] = Array.isArray(parsed) ? (parsed as unknown[]) : [];
  const valid =
    s === sort &&
    typeof key === "string" &&
    typeof id === "string" &&
    UUID.test(id) &&
    (sort === "title" ? isTitleKey(key) : isCursorTime(key));
  if (!valid)
    throw new ApiError(
      400,
      INVALID_CURSOR,
      "The cursor is not one this API returned for this sort; start again without it.",
    );
  return { sort, key: key, id: id };
}

/** `%` and `_` typed by the user are literal characters, not patterns. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One keyset page of the user's library. Each sort walks an index (`tasks_user_created_idx`,
 * `tasks_user_title_idx`, `tasks_user_favourite_idx`) from the cursor, so page 100 costs what
 * page 1 does. Search filters the user's rows with ILIKE (no full-text index: a user's library
 * is thousands of rows, not millions).
 */
export async function listTasks(
  db: AppDatabase,
  userId: number,
  query: ListQuery,
): Promise<{ rows: TaskRow[]; nextCursor: string | null }> {
  const sort = query.sort ?? "newest";
  const rows = await libraryQuery(db, userId, query);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => r.row),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor(sort, last.row, last.titleKey) : null,
  };
}

/** The statement of one page (one row more than `limit`: whether another page follows). Tests EXPLAIN it. */
export function libraryQuery(db: AppDatabase, userId: number, query: ListQuery) {
  const sort = query.sort ?? "newest";
  const after = query.cursor ? decodeCursor(query.cursor, sort) : undefined;
  const title = sql`lower(${tasks.title})`;
  let keyset: SQL | undefined;
  if (after && sort === "newest")
    keyset = sql`(${tasks.createdAt}, ${tasks.id}) < (${after.key}::timestamptz, ${after.id}::uuid)`;
  if (after && sort === "oldest")
    keyset = sql`(${tasks.createdAt}, ${tasks.id}) > (${after.key}::timestamptz, ${after.id}::uuid)`;
  if (after && sort === "title")
    keyset = sql`(${title}, ${tasks.id}) > (${after.key}, ${after.id}::uuid)`;
  const search = query.search?.trim();
  const pattern = search ? likePattern(search) : undefined;
  const order =
    sort === "title"
      ? [asc(title), asc(tasks.id)]
      : sort === "oldest"
        ? [asc(tasks.createdAt), asc(tasks.id)]
        : [desc(tasks.createdAt), desc(tasks.id)];
  return db
    .select({ row: tasks, titleKey: sql<string>`${title}` })
    .from(tasks)
    .where(
      and(
        eq(tasks.userId, userId),
        isNull(tasks.deletedAt),
        query.statuses && query.statuses.length > 0
          ? inArray(tasks.status, [...query.statuses])
          : undefined,
        query.favourite === undefined ? undefined : eq(tasks.favourite, query.favourite),
        pattern
          ? sql`(${tasks.title} ilike ${pattern} or ${tasks.params}->>'prompt' ilike ${pattern}
              or ${tasks.params}->>'lyrics' ilike ${pattern})`
          : undefined,
        keyset,
      ),
    )
    .orderBy(...order)
    .limit(query.limit + 1);
}
