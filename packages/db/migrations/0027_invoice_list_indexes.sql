-- Lists at a million invoices (docs/scaling.md): each documented filter and sort of GET /invoices reads its first page
-- from an index of the account's invoices (their first records, the rows with current_record_id).
--
-- What a correction or a cancellation changes of an invoice's current state that a list filters or sorts on, kept on
-- the invoice's first row by the append statement that makes that record current (chain-append-write-store.ts), so
-- that an index of the first rows can serve it. NULL while the invoice's current record is its first one: the first
-- row's own columns are then the current ones, and nothing is written twice. The recipient's NIF is '' for a current
-- record without one, which no filter value equals.
ALTER TABLE "invoices" ADD COLUMN "current_total_amount" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "current_invoice_type" varchar(2);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "current_recipient_nif" text;--> statement-breakpoint
UPDATE "invoices" f SET "current_total_amount" = c."total_amount", "current_invoice_type" = c."invoice_type",
  "current_recipient_nif" = coalesce(c."recipient" ->> 'nif', '')
FROM "invoices" c WHERE c."id" = f."current_record_id" AND f."current_record_id" <> f."id";--> statement-breakpoint
CREATE INDEX "invoices_account_total_idx" ON "invoices" USING btree ("account_id", (coalesce("current_total_amount", "total_amount")), "id") WHERE "current_record_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_account_type_idx" ON "invoices" USING btree ("account_id", (coalesce("current_invoice_type", "invoice_type")), "created_at", "id") WHERE "current_record_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_account_recipient_idx" ON "invoices" USING btree ("account_id", (coalesce("current_recipient_nif", "recipient" ->> 'nif')), "created_at", "id") WHERE "current_record_id" IS NOT NULL;--> statement-breakpoint
-- kind=corrective: few invoices of an account, found from an index of their own rather than among all of them.
CREATE INDEX "invoices_account_corrective_idx" ON "invoices" USING btree ("account_id", "created_at", "id") WHERE "current_record_id" IS NOT NULL AND coalesce("current_invoice_type", "invoice_type") LIKE 'R%';--> statement-breakpoint
-- number_prefix: LIKE 'prefix%' ranges over the pattern-ordered index whatever the database's collation.
CREATE INDEX "invoices_account_number_pattern_idx" ON "invoices" USING btree ("account_id", "invoice_number" varchar_pattern_ops) WHERE "current_record_id" IS NOT NULL;--> statement-breakpoint
-- q: ILIKE '%text%' over trigrams (pg_trgm, a contrib extension shipped with PostgreSQL's server packages).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "invoices_number_trgm_idx" ON "invoices" USING gin ("invoice_number" gin_trgm_ops) WHERE "current_record_id" IS NOT NULL;
