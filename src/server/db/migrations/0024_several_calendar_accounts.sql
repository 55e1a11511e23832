ALTER TABLE "integrations" DROP CONSTRAINT "integrations_user_id_kind_pk";--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "calendars" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_user_kind_position_idx" ON "integrations" USING btree ("user_id","kind","position");--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_user_account_idx" ON "integrations" USING btree ("user_id","provider","account_id");--> statement-breakpoint
-- A Google account's id is its primary calendar's id, its address; Microsoft's is read at the next refresh.
UPDATE "integrations" SET "email" = "account_id" WHERE "provider" = 'google' AND "account_id" LIKE '%@%';
