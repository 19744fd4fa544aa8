-- The census check of tax IDs (VNifV2). `census_answers`: what the census answered, shared by every account of the
-- deployment for the same NIF and name; keyed by a digest of the normalised name, so no name is kept to find it.
-- Only answers that hold (never "not processed"). `tax_id_checks`: each account's evidence of its own checks.
CREATE TABLE "census_answers" (
  "nif" text NOT NULL,
  "name_digest" char(64) NOT NULL,
  "detail" text NOT NULL,
  "census_name" text,
  "request_digest" char(64) NOT NULL,
  "checked_at" timestamp with time zone NOT NULL,
  CONSTRAINT "census_answers_pk" PRIMARY KEY ("nif", "name_digest")
);--> statement-breakpoint
CREATE TABLE "tax_id_checks" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "tax_id" text NOT NULL,
  "result" text NOT NULL,
  "detail" text NOT NULL,
  "source" text NOT NULL,
  "request_digest" char(64) NOT NULL,
  "checked_at" timestamp with time zone NOT NULL,
  "recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "tax_id_checks_account_idx" ON "tax_id_checks" ("account_id", "recorded_at" DESC);
