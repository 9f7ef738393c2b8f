CREATE TABLE "users" (
	"id" bigint PRIMARY KEY NOT NULL,
	"login" text NOT NULL,
	"name" text NOT NULL,
	"avatar_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "handoff_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"code_challenge" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" bigint NOT NULL,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "grants" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"access_token_enc" text NOT NULL,
	"refresh_token_enc" text,
	"scope" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"revoked_reason" text,
	"version" integer DEFAULT 1 NOT NULL,
	"refreshed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proxy_tokens" (
	"user_id" bigint NOT NULL,
	"namespace" text NOT NULL,
	"token_id" bigint NOT NULL,
	"token_enc" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"minted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proxy_tokens_user_id_namespace_token_id_pk" PRIMARY KEY("user_id","namespace","token_id")
);
--> statement-breakpoint
CREATE TABLE "token_selections" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"namespace" text NOT NULL,
	"token_id" bigint NOT NULL,
	"token_name" text NOT NULL,
	"usage_scenario" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_secrets" (
	"user_id" bigint NOT NULL,
	"namespace" text NOT NULL,
	"secret_enc" text NOT NULL,
	"previous_secret_enc" text,
	"previous_valid_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_secrets_user_id_namespace_pk" PRIMARY KEY("user_id","namespace")
);
--> statement-breakpoint
CREATE TABLE "task_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"task_id" uuid NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" bigint NOT NULL,
	"namespace" text NOT NULL,
	"token_id" bigint NOT NULL,
	"status" text NOT NULL,
	"platform_task_id" text,
	"webhook_key_hash" text,
	"webhook_expected" boolean DEFAULT false NOT NULL,
	"params" jsonb NOT NULL,
	"output" jsonb,
	"usage_info" jsonb,
	"error" text,
	"unknown_status" text,
	"file_url" text,
	"file_expires_at" timestamp with time zone,
	"archive_path" text,
	"archive_status" text,
	"archive_content_type" text,
	"archive_bytes" bigint,
	"archive_attempts" integer DEFAULT 0 NOT NULL,
	"archive_next_at" timestamp with time zone,
	"cancel_requested_at" timestamp with time zone,
	"submit_started_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_event_at" timestamp with time zone,
	"next_poll_at" timestamp with time zone,
	"poll_count" integer DEFAULT 0 NOT NULL,
	"poll_errors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "tasks_platform_task_id_unique" UNIQUE("platform_task_id"),
	CONSTRAINT "tasks_webhook_key_hash_unique" UNIQUE("webhook_key_hash")
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"status" text NOT NULL,
	"signed_at" bigint NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_rejections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint,
	"task_id" uuid,
	"reason" text NOT NULL,
	"message" text NOT NULL,
	"http_status" integer NOT NULL,
	"diagnoses" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "handoff_codes" ADD CONSTRAINT "handoff_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proxy_tokens" ADD CONSTRAINT "proxy_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_selections" ADD CONSTRAINT "token_selections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_rejections" ADD CONSTRAINT "webhook_rejections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_rejections" ADD CONSTRAINT "webhook_rejections_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "task_events_user_idx" ON "task_events" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "tasks_user_created_idx" ON "tasks" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tasks_poll_idx" ON "tasks" USING btree ("next_poll_at") WHERE "tasks"."next_poll_at" is not null;--> statement-breakpoint
CREATE INDEX "tasks_queued_idx" ON "tasks" USING btree ("user_id","namespace","created_at") WHERE "tasks"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "tasks_submitting_idx" ON "tasks" USING btree ("submit_started_at") WHERE "tasks"."status" = 'submitting';--> statement-breakpoint
CREATE INDEX "tasks_archive_idx" ON "tasks" USING btree ("archive_next_at") WHERE "tasks"."archive_status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_rejections_user_idx" ON "webhook_rejections" USING btree ("user_id","id");