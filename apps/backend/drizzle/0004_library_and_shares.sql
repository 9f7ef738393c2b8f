CREATE TABLE "share_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" bigint NOT NULL,
	"task_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"include_text" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "share_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "title" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Existing tasks take the default title new ones get (tasks/title.ts: the prompt's first line, 60 characters).
UPDATE "tasks" SET "title" = coalesce(nullif(left(btrim(split_part(coalesce("params"->>'prompt', ''), E'\n', 1)), 60), ''), 'Untitled');--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "favourite" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "price" double precision;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_links_task_idx" ON "share_links" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "task_events_created_idx" ON "task_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tasks_user_title_idx" ON "tasks" USING btree ("user_id",lower("title"),"id");--> statement-breakpoint
CREATE INDEX "tasks_user_favourite_idx" ON "tasks" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "tasks"."favourite";--> statement-breakpoint
CREATE INDEX "tasks_deleted_idx" ON "tasks" USING btree ("deleted_at") WHERE "tasks"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "webhook_events_received_idx" ON "webhook_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "webhook_rejections_received_idx" ON "webhook_rejections" USING btree ("received_at");