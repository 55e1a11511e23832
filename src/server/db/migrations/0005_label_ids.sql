ALTER TABLE "timebox_settings" ADD COLUMN "label_id" text;--> statement-breakpoint
ALTER TABLE "todo_settings" ADD COLUMN "task_duration_label_id" text;--> statement-breakpoint
-- Settings made before labels were followed by id take the id of the stored Todoist label of their name.
UPDATE "timebox_settings" AS "t" SET "label_id" = "l"."value"->>'id'
FROM "todo_settings" AS "s", jsonb_array_elements("s"."labels") AS "l"
WHERE "s"."user_id" = "t"."user_id" AND lower("l"."value"->>'name') = lower("t"."label");--> statement-breakpoint
UPDATE "todo_settings" AS "s" SET "task_duration_label_id" = (
  SELECT "l"."value"->>'id' FROM jsonb_array_elements("s"."labels") AS "l"
  WHERE "l"."value"->>'name' = "s"."task_duration_label" LIMIT 1
) WHERE "s"."task_duration_label" IS NOT NULL;
