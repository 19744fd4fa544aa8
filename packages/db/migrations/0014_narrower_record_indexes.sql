-- Every registration writes a record, its lines and its first status event; every index on them is written too, and
-- a status change (sent, accepted) writes every index of `invoices` again. Two indexes served no query:
-- * invoice_lines' own uuid key: a line is only ever read by its record (invoice_id, line_no), and nothing refers to
--   a line's id. It cost a random uuid and an insert at a random place of a third index per line; the line's key is now
--   (invoice_id, line_no), which already had to be unique.
-- * invoices (taxpayer_id, authority_status, chain_seq): from before chains, when the sender read a taxpayer's records
--   by status; the sender reads by chain (invoices_chain_status_seq_idx). What still looks records up by taxpayer
--   (the invoice list's taxpayer filter, a corrective invoice's links, deleting a taxpayer) needs the taxpayer alone.
ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_pkey";--> statement-breakpoint
ALTER TABLE "invoice_lines" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_invoice_line_uq";--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_pkey" PRIMARY KEY ("invoice_id", "line_no");--> statement-breakpoint
DROP INDEX "invoices_taxpayer_status_seq_idx";--> statement-breakpoint
CREATE INDEX "invoices_taxpayer_idx" ON "invoices" USING btree ("taxpayer_id");
