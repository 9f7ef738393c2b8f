CREATE TABLE "rate_limits" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"allowed" boolean NOT NULL,
	"at" timestamp with time zone NOT NULL
);
