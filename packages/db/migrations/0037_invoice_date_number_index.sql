-- A date range sorted by invoice number is read day by day, as by registration time (decision 0070): each day's first
-- invoices by number from this index, merged. Reading the number index until 50 invoices fell in the range read every
-- invoice numbered beyond it when numbers follow the dates (a month a year back: 100,000 rows at a million). Without
-- the id (about 18 bytes an invoice less): the few rows a page reads are fetched, and equal numbers ordered by id then.
CREATE INDEX "invoices_account_date_number_idx" ON "invoices" USING btree ("account_id", "invoice_date", "invoice_number" COLLATE "C") WHERE "current_record_id" IS NOT NULL;
