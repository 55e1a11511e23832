CREATE TABLE "notice_mails" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"occurrence" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "notice_mails_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notice_mails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notice_mails_resolved" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notice_mails" ADD CONSTRAINT "notice_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;