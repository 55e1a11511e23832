ALTER TABLE "sync_links" ADD COLUMN "all_day" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "todo_settings" ADD COLUMN "dated_tasks" text DEFAULT 'skip' NOT NULL;