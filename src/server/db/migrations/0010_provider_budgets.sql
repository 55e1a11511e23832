ALTER TABLE "sync_states" ADD COLUMN "todoist_budget" double precision;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "todoist_budget_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "calendar_budget" double precision;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "calendar_budget_at" timestamp with time zone;