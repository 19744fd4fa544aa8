-- Invoice lists and exports sorted by invoice date or number read one account's invoices (first records, the
-- only rows with current_record_id) in keyset order; these serve each batch without sorting the account's rows.
CREATE INDEX "invoices_account_date_idx" ON "invoices" USING btree ("account_id", "invoice_date", "id") WHERE "current_record_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "invoices_account_number_idx" ON "invoices" USING btree ("account_id", "invoice_number", "id") WHERE "current_record_id" IS NOT NULL;
