-- Lists sorted by invoice number and filtered by a number prefix were served by two indexes of the account's first
-- rows holding the same numbers: one in the database's collation (the sort) and one of varchar_pattern_ops (LIKE
-- 'prefix%'), about 120 bytes an invoice together (docs/scaling.md). One index of the numbers in the "C" collation
-- serves both: it ranges over a LIKE prefix with its default operators, and the lists sort by the number in that
-- collation, byte order (decision 0058).
DROP INDEX "invoices_account_number_pattern_idx";--> statement-breakpoint
DROP INDEX "invoices_account_number_idx";--> statement-breakpoint
CREATE INDEX "invoices_account_number_idx" ON "invoices" USING btree ("account_id", "invoice_number" COLLATE "C", "id") WHERE "current_record_id" IS NOT NULL;
