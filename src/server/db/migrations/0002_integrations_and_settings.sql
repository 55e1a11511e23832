CREATE TABLE "calendar_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"calendar_id" text,
	"calendars" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"color" text DEFAULT '' NOT NULL,
	"category" text,
	"private" boolean DEFAULT false NOT NULL,
	"todoist_link_description" boolean DEFAULT false NOT NULL,
	"reminder" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"account_id" text,
	"access_token_encrypted" text NOT NULL,
	"refresh_token_encrypted" text,
	"key_id" text NOT NULL,
	"expires_at" timestamp with time zone,
	"needs_reconnect" boolean DEFAULT false NOT NULL,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integrations_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "timebox_settings" (
	"user_id" uuid NOT NULL,
	"label" text NOT NULL,
	"duration" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "todo_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"account_type" text,
	"todoist_user_id" text,
	"timezone" text,
	"labels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"task_duration_active" boolean DEFAULT false NOT NULL,
	"task_duration_label" text,
	"on_complete" text DEFAULT 'nothing' NOT NULL,
	"on_pre_complete" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_settings" ADD CONSTRAINT "calendar_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timebox_settings" ADD CONSTRAINT "timebox_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todo_settings" ADD CONSTRAINT "todo_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "timebox_settings_user_label_idx" ON "timebox_settings" USING btree ("user_id",lower("label"));