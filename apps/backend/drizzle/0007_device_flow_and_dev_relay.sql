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
CREATE TABLE "relay_channels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_delivery_at" timestamp with time zone,
	CONSTRAINT "relay_channels_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "relay_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"channel_id" uuid NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"query" text NOT NULL,
	"headers" jsonb NOT NULL,
	"body" "bytea" NOT NULL,
	"size" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relay_listeners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel_id" uuid NOT NULL,
	"lease_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_authorizations" ADD CONSTRAINT "device_authorizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relay_channels" ADD CONSTRAINT "relay_channels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relay_deliveries" ADD CONSTRAINT "relay_deliveries_channel_id_relay_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."relay_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relay_listeners" ADD CONSTRAINT "relay_listeners_channel_id_relay_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."relay_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "relay_channels_user_idx" ON "relay_channels" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "relay_deliveries_channel_idx" ON "relay_deliveries" USING btree ("channel_id","id");--> statement-breakpoint
CREATE INDEX "relay_listeners_channel_idx" ON "relay_listeners" USING btree ("channel_id");