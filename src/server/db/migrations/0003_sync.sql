CREATE TABLE "sync_activity" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"direction" text NOT NULL,
	"action" text NOT NULL,
	"task_id" text,
	"event_id" text,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "sync_hints" (
	"user_id" uuid NOT NULL,
	"task_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "sync_hints_user_id_task_id_pk" PRIMARY KEY("user_id","task_id")
);
--> statement-breakpoint
CREATE TABLE "sync_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"task_id" text,
	"event_id" text,
	"calendar_id" text NOT NULL,
	"origin" text NOT NULL,
	"pending_key" text,
	"generation" integer DEFAULT 0 NOT NULL,
	"task_version" text,
	"event_version" text,
	"title_hash" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"task_minutes" integer NOT NULL,
	"event_minutes" integer NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"marked" boolean DEFAULT false NOT NULL,
	"appearance_hash" text NOT NULL,
	"task_meta" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_problems" (
	"user_id" uuid NOT NULL,
	"code" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	CONSTRAINT "sync_problems_user_id_code_pk" PRIMARY KEY("user_id","code")
);
--> statement-breakpoint
CREATE TABLE "sync_states" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"todoist_token" text,
	"calendar_token" text,
	"calendar_id" text,
	"calendar_provider" text,
	"channel_id" text,
	"channel_resource_id" text,
	"channel_secret_hash" text,
	"channel_expires_at" timestamp with time zone,
	"title_salt" text,
	"last_run_at" timestamp with time zone,
	"backoff_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sync_activity" ADD CONSTRAINT "sync_activity_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_hints" ADD CONSTRAINT "sync_hints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_links" ADD CONSTRAINT "sync_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_problems" ADD CONSTRAINT "sync_problems_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_states" ADD CONSTRAINT "sync_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_activity_user_at_idx" ON "sync_activity" USING btree ("user_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "sync_links_user_task_idx" ON "sync_links" USING btree ("user_id","task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sync_links_user_event_idx" ON "sync_links" USING btree ("user_id","event_id");