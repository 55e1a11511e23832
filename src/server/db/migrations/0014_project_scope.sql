ALTER TABLE "todo_settings" ADD COLUMN "projects" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "todo_settings" ADD COLUMN "project_scope" jsonb;--> statement-breakpoint
ALTER TABLE "todo_settings" ADD COLUMN "event_project_id" text;