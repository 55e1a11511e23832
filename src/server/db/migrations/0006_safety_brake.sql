ALTER TABLE "sync_states" ADD COLUMN "held_events" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "held_tasks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "held_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "brake_choice" text;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "removal_window_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "removal_window_count" integer DEFAULT 0 NOT NULL;