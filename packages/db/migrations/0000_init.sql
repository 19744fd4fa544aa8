CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"api_key_digest" text NOT NULL,
	"api_key_hint" text NOT NULL,
	"api_key_created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"plan_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_email_unique" UNIQUE("email"),
	CONSTRAINT "accounts_api_key_digest_unique" UNIQUE("api_key_digest")
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"monthly_quota" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"account_id" uuid NOT NULL,
	"period" text NOT NULL,
	"registrations" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_counters_account_id_period_pk" PRIMARY KEY("account_id","period")
);
--> statement-breakpoint
CREATE TABLE "web_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_digest" text NOT NULL,
	"account_id" uuid NOT NULL,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "web_sessions_token_digest_unique" UNIQUE("token_digest")
);
--> statement-breakpoint
CREATE TABLE "taxpayers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"nif" varchar(9) NOT NULL,
	"name" varchar(120) NOT NULL,
	"is_production" boolean DEFAULT false NOT NULL,
	"certificate_source" text,
	"certificate_path" text,
	"certificate_p12" "bytea",
	"certificate_password" "bytea",
	"certificate_subject" text,
	"certificate_nif" text,
	"certificate_not_before" timestamp with time zone,
	"certificate_not_after" timestamp with time zone,
	"chain_length" integer DEFAULT 0 NOT NULL,
	"last_invoice_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "taxpayers_account_nif_uq" UNIQUE("account_id","nif")
);
--> statement-breakpoint
CREATE TABLE "computer_systems" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"vendor_name" varchar(120) NOT NULL,
	"vendor_nif" varchar(9) NOT NULL,
	"name" varchar(30) NOT NULL,
	"version" varchar(50) NOT NULL,
	"installation_number" varchar(100) NOT NULL,
	"only_supports_verifactu" boolean DEFAULT true NOT NULL,
	"system_code" varchar(2) NOT NULL,
	"supports_multiple_taxpayers" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"tax_type" varchar(2) NOT NULL,
	"regime_type" varchar(2),
	"operation_type" varchar(2) NOT NULL,
	"base_amount" numeric(14, 2) NOT NULL,
	"tax_rate" numeric(5, 2),
	"tax_amount" numeric(14, 2),
	"surcharge_rate" numeric(5, 2),
	"surcharge_amount" numeric(14, 2),
	CONSTRAINT "invoice_lines_invoice_line_uq" UNIQUE("invoice_id","line_no")
);
--> statement-breakpoint
CREATE TABLE "invoice_status_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"invoice_id" uuid NOT NULL,
	"status" text NOT NULL,
	"code" integer,
	"message" text,
	"submission_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"taxpayer_id" uuid NOT NULL,
	"computer_system_id" uuid NOT NULL,
	"chain_seq" integer NOT NULL,
	"record_type" text DEFAULT 'registration' NOT NULL,
	"invoice_number" varchar(60) NOT NULL,
	"invoice_date" date NOT NULL,
	"invoice_type" varchar(2) NOT NULL,
	"description" varchar(500) NOT NULL,
	"operation_date" date,
	"recipient" jsonb,
	"rectification_type" char(1),
	"rectified_base_amount" numeric(14, 2),
	"rectified_tax_amount" numeric(14, 2),
	"corrected_invoices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"total_amount" numeric(14, 2) NOT NULL,
	"total_tax_amount" numeric(14, 2) NOT NULL,
	"issuer_nif" varchar(9) NOT NULL,
	"issuer_name" varchar(120) NOT NULL,
	"system_snapshot" jsonb NOT NULL,
	"is_production" boolean NOT NULL,
	"generated_at_literal" text NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	"previous_invoice_id" uuid,
	"previous_hash" char(64),
	"hash" char(64) NOT NULL,
	"qr_url" text NOT NULL,
	"authority_status" text DEFAULT 'queued' NOT NULL,
	"authority_code" integer,
	"authority_message" text,
	"authority_csv" text,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_taxpayer_number_date_uq" UNIQUE("taxpayer_id","invoice_number","invoice_date"),
	CONSTRAINT "invoices_taxpayer_chain_seq_uq" UNIQUE("taxpayer_id","chain_seq")
);
--> statement-breakpoint
CREATE TABLE "send_states" (
	"taxpayer_id" uuid PRIMARY KEY NOT NULL,
	"next_send_at" timestamp with time zone DEFAULT now() NOT NULL,
	"wait_seconds" integer DEFAULT 60 NOT NULL,
	"last_send_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "submission_invoices" (
	"submission_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "submission_invoices_submission_id_invoice_id_pk" PRIMARY KEY("submission_id","invoice_id")
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"taxpayer_id" uuid NOT NULL,
	"outcome" text DEFAULT 'in_flight' NOT NULL,
	"worker_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"certificate_mode" text NOT NULL,
	"incident" boolean DEFAULT false NOT NULL,
	"record_count" integer NOT NULL,
	"request_xml" text NOT NULL,
	"response_xml" text,
	"http_status" integer,
	"fault_code" text,
	"error_message" text,
	"csv" text,
	"wait_seconds" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "web_sessions" ADD CONSTRAINT "web_sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "taxpayers" ADD CONSTRAINT "taxpayers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "computer_systems" ADD CONSTRAINT "computer_systems_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_status_events" ADD CONSTRAINT "invoice_status_events_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_taxpayer_id_taxpayers_id_fk" FOREIGN KEY ("taxpayer_id") REFERENCES "public"."taxpayers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_computer_system_id_computer_systems_id_fk" FOREIGN KEY ("computer_system_id") REFERENCES "public"."computer_systems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_states" ADD CONSTRAINT "send_states_taxpayer_id_taxpayers_id_fk" FOREIGN KEY ("taxpayer_id") REFERENCES "public"."taxpayers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_invoices" ADD CONSTRAINT "submission_invoices_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_invoices" ADD CONSTRAINT "submission_invoices_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_taxpayer_id_taxpayers_id_fk" FOREIGN KEY ("taxpayer_id") REFERENCES "public"."taxpayers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "taxpayers_account_idx" ON "taxpayers" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "computer_systems_account_idx" ON "computer_systems" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "invoice_status_events_invoice_idx" ON "invoice_status_events" USING btree ("invoice_id","id");--> statement-breakpoint
CREATE INDEX "invoices_account_created_idx" ON "invoices" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_taxpayer_status_seq_idx" ON "invoices" USING btree ("taxpayer_id","authority_status","chain_seq");--> statement-breakpoint
CREATE INDEX "invoices_status_idx" ON "invoices" USING btree ("authority_status");--> statement-breakpoint
CREATE INDEX "submission_invoices_invoice_idx" ON "submission_invoices" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "submissions_taxpayer_idx" ON "submissions" USING btree ("taxpayer_id","started_at");