CREATE TABLE "provider_app_budgets" (
	"provider" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"spent_at" timestamp with time zone NOT NULL
);
