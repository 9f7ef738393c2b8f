CREATE TABLE "task_event_marks" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"pruned_through" bigint DEFAULT 0 NOT NULL,
	"deleted_through" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "task_event_marks_one_row" CHECK ("task_event_marks"."id" = 1)
);
--> statement-breakpoint
-- The marks start right. Appenders hold this lock from drawing an id to their commit
-- (services/events/append.ts), so once it is held every id the sequence handed out is committed
-- or rolled back. A database that pruned before cannot say which ids it deleted: every id below
-- the oldest event kept counts as pruned (a client older than that reloads its list once, never
-- wrongly keeps a gap), and every id handed out counts as held (no client of this database is
-- taken for one of a restored backup). A new database starts at 0 and 0.
SELECT pg_advisory_xact_lock(7324002);
--> statement-breakpoint
INSERT INTO "task_event_marks" ("id", "pruned_through", "deleted_through")
SELECT 1, coalesce((SELECT min("id") - 1 FROM "task_events"), s."issued"), s."issued"
FROM (SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS "issued" FROM "task_events_id_seq") AS s;
--> statement-breakpoint
-- A statement that deletes task events itself (retention, `overture-backend prune`, an operator's
-- DELETE) cuts the replay log: pg_trigger_depth() is 1 here. One that deletes them because their
-- tasks were deleted (the trigger tasks_delete_events of migration 0005: depth 2 or more) removes
-- a deleted task's history, which moves only `deleted_through`. The row is updated only when a
-- mark rises, so deletes of older rows take no lock on it.
CREATE FUNCTION "task_events_marks"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  top bigint;
  pruned boolean := pg_trigger_depth() = 1;
BEGIN
  SELECT max("id") INTO top FROM "deleted_events";
  IF top IS NULL THEN
    RETURN NULL;
  END IF;
  UPDATE "task_event_marks" SET
    "deleted_through" = greatest("deleted_through", top),
    "pruned_through" = CASE WHEN pruned THEN greatest("pruned_through", top) ELSE "pruned_through" END
  WHERE "deleted_through" < top OR (pruned AND "pruned_through" < top);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "task_events_marks" AFTER DELETE ON "task_events"
  REFERENCING OLD TABLE AS "deleted_events" FOR EACH STATEMENT EXECUTE FUNCTION "task_events_marks"();
--> statement-breakpoint
-- TRUNCATE shows the trigger no rows: every id handed out so far counts as pruned.
CREATE FUNCTION "task_events_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  issued bigint;
BEGIN
  SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO issued FROM "task_events_id_seq";
  UPDATE "task_event_marks" SET
    "deleted_through" = greatest("deleted_through", issued),
    "pruned_through" = greatest("pruned_through", issued);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "task_events_truncated" AFTER TRUNCATE ON "task_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "task_events_truncated"();
