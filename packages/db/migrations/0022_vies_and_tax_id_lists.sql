-- VIES's checks of EU VAT numbers kept as evidence beside the census's: the consultation number VIES gives when the
-- requester's own VAT number is sent (what the European Commission tells traders to keep), and the fault code of an
-- answer VIES could not give.
ALTER TABLE "tax_id_checks" ADD COLUMN "request_identifier" text;--> statement-breakpoint
ALTER TABLE "tax_id_checks" ADD COLUMN "fault_code" text;
--> statement-breakpoint
-- Lists of up to 10,000 tax IDs checked by the workers (POST /tax-ids/lists): the list, and one row per tax ID asked,
-- in the order given. A row's name is kept only until the row is answered: it is what the census is asked, not
-- evidence. A list is `pending` until every row has its answer, then `done`.
CREATE TABLE "tax_id_lists" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "taxpayer_id" uuid,
  "max_age" integer NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "total" integer NOT NULL,
  "answered" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "tax_id_lists_account_idx" ON "tax_id_lists" ("account_id", "created_at" DESC);--> statement-breakpoint
CREATE INDEX "tax_id_lists_pending_idx" ON "tax_id_lists" ("created_at") WHERE "status" = 'pending';--> statement-breakpoint
CREATE TABLE "tax_id_list_rows" (
  "list_id" uuid NOT NULL REFERENCES "tax_id_lists"("id") ON DELETE CASCADE,
  "position" integer NOT NULL,
  "tax_id" text NOT NULL,
  "kind" text NOT NULL,
  "name" text,
  "result" text,
  "detail" text,
  "census_name" text,
  "fault_code" text,
  "request_identifier" text,
  "source" text,
  "checked_at" timestamp with time zone,
  CONSTRAINT "tax_id_list_rows_pk" PRIMARY KEY ("list_id", "position")
);
