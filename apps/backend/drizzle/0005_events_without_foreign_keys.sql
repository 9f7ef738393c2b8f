ALTER TABLE "task_events" DROP CONSTRAINT "task_events_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "task_events" DROP CONSTRAINT "task_events_task_id_tasks_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_task_id_tasks_id_fk";
--> statement-breakpoint
-- Deleting tasks (the purge, or a user's deletion cascading to their tasks) deletes their events:
-- one join per statement, where a foreign key's cascade ran one scan of task_events per task.
CREATE FUNCTION "tasks_delete_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "task_events" AS e USING "deleted_tasks" AS d WHERE e."task_id" = d."id";
  DELETE FROM "webhook_events" AS w USING "deleted_tasks" AS d WHERE w."task_id" = d."id";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_delete_events" AFTER DELETE ON "tasks"
  REFERENCING OLD TABLE AS "deleted_tasks" FOR EACH STATEMENT EXECUTE FUNCTION "tasks_delete_events"();
