ALTER TABLE "tasks" DROP COLUMN "archive_path";--> statement-breakpoint
ALTER TABLE "tasks" DROP COLUMN "archive_content_type";--> statement-breakpoint
ALTER TABLE "tasks" DROP COLUMN "archive_bytes";