ALTER TABLE "sync_links" ADD COLUMN "refused_write" text;--> statement-breakpoint
ALTER TABLE "sync_links" ADD COLUMN "refused_status" integer;--> statement-breakpoint
ALTER TABLE "sync_links" ADD COLUMN "refused_reason" text;--> statement-breakpoint
ALTER TABLE "sync_links" ADD COLUMN "refused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_links" ADD COLUMN "refused_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_links" ADD COLUMN "refused_event_version" text;--> statement-breakpoint
ALTER TABLE "sync_links" ADD COLUMN "refused_appearance" text;