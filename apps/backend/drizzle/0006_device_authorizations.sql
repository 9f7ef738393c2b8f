CREATE TABLE "device_authorizations" (
	"device_code_hash" text PRIMARY KEY NOT NULL,
	"user_code_hash" text NOT NULL,
	"status" text NOT NULL,
	"state_hash" text,
	"confirm_hash" text,
	"user_id" bigint,
	"user_agent" text,
	"interval_seconds" integer NOT NULL,
	"last_polled_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_authorizations_user_code_hash_unique" UNIQUE("user_code_hash"),
	CONSTRAINT "device_authorizations_state_hash_unique" UNIQUE("state_hash"),
	CONSTRAINT "device_authorizations_confirm_hash_unique" UNIQUE("confirm_hash")
);
--> statement-breakpoint
ALTER TABLE "device_authorizations" ADD CONSTRAINT "device_authorizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;