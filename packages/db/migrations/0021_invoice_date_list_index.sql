-- A list sorted by invoice date orders by (invoice_date, created_at, id): with the index in that order its first page
-- is read from the index alone, where the index without created_at made PostgreSQL sort each date's invoices (at a
-- million invoices in an account, thousands a date).
DROP INDEX "invoices_account_date_idx";--> statement-breakpoint
CREATE INDEX "invoices_account_date_idx" ON "invoices" USING btree ("account_id", "invoice_date", "created_at", "id") WHERE "current_record_id" IS NOT NULL;
