DROP INDEX "sync_links_user_task_idx";--> statement-breakpoint
DROP INDEX "sync_links_user_event_idx";--> statement-breakpoint
ALTER TABLE "sync_links" ADD COLUMN "parked_in" uuid;--> statement-breakpoint
ALTER TABLE "sync_links" ADD CONSTRAINT "sync_links_parked_in_integrations_id_fk" FOREIGN KEY ("parked_in") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_links_parked_idx" ON "sync_links" USING btree ("user_id","parked_in","calendar_id") WHERE "sync_links"."parked_in" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sync_links_user_task_idx" ON "sync_links" USING btree ("user_id","task_id") WHERE "sync_links"."parked_in" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sync_links_user_event_idx" ON "sync_links" USING btree ("user_id","event_id") WHERE "sync_links"."parked_in" is null;