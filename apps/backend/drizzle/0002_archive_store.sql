CREATE TABLE "archive_chunks" (
	"file_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "archive_chunks_file_id_seq_pk" PRIMARY KEY("file_id","seq")
);
--> statement-breakpoint
CREATE TABLE "archive_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" bigint NOT NULL,
	"storage" text NOT NULL,
	"path" text,
	"chunk_bytes" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "archive_files_task_kind_key" UNIQUE("task_id","kind")
);
--> statement-breakpoint
CREATE TABLE "archive_peaks" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"sample_rate" integer NOT NULL,
	"channels" integer NOT NULL,
	"frames" bigint NOT NULL,
	"samples_per_pixel" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "archive_error" text;--> statement-breakpoint
ALTER TABLE "archive_chunks" ADD CONSTRAINT "archive_chunks_file_id_archive_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."archive_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archive_files" ADD CONSTRAINT "archive_files_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archive_files" ADD CONSTRAINT "archive_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "archive_peaks" ADD CONSTRAINT "archive_peaks_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "archive_files_user_idx" ON "archive_files" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "archive_files_created_idx" ON "archive_files" USING btree ("created_at");--> statement-breakpoint
-- Results archived before this release live in ARCHIVE_DIR under the name in archive_path.
INSERT INTO "archive_files" ("task_id", "user_id", "kind", "content_type", "bytes", "storage", "path", "created_at")
SELECT "id", "user_id", 'original', coalesce("archive_content_type", 'application/octet-stream'), coalesce("archive_bytes", 0), 'folder', "archive_path", "updated_at"
FROM "tasks" WHERE "archive_status" = 'archived' AND "archive_path" IS NOT NULL;
