ALTER TABLE "sync_states" ADD COLUMN "scope_hash" text;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "calendar_account_id" text;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "calendar_name" text;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "left_behind" jsonb;