-- A batch of 1,000 registrations spent about half of PostgreSQL's time on seven foreign-key checks, each run row by
-- row. Four of them check links that the statements writing the rows make themselves
-- (docs/decisions/0024-record-links-made-by-the-statement-that-writes-them.md):
-- * a record's chain: the append locks and swaps the chain's head row in the same statement, and inserts only the
--   records of chains it swapped; a chain is deleted only while it has no record (chain_length = 0) or with its
--   taxpayer, which invoices_taxpayer_id_taxpayers_id_fk refuses while records name it;
-- * a record's invoice: a registration is its own invoice; a correction or cancellation names the invoice row the
--   same statement updates, and stores NULL (refused by NOT NULL) when there is none;
-- * a line's record: built with the record, naming its id, and inserted by the statement that inserts the record;
-- * a status event's record: inserted from the rows the same statement inserted or updated.
-- Those keys' ON DELETE CASCADE is kept by the trigger below (records are removed only with their account).
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_chain_id_chains_id_fk";--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_invoice_id_invoices_id_fk";--> statement-breakpoint
ALTER TABLE "invoice_lines" DROP CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk";--> statement-breakpoint
ALTER TABLE "invoice_status_events" DROP CONSTRAINT "invoice_status_events_invoice_id_invoices_id_fk";--> statement-breakpoint
CREATE FUNCTION "invoice_records_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Fired by every DELETE on invoices, also one that removed nothing (the nested one below, at the end).
  IF NOT EXISTS (SELECT 1 FROM "removed") THEN
    RETURN NULL;
  END IF;
  DELETE FROM "invoice_lines" l USING "removed" g WHERE l."invoice_id" = g."id";
  DELETE FROM "invoice_status_events" e USING "removed" g WHERE e."invoice_id" = g."id";
  DELETE FROM "invoices" i USING "removed" g WHERE i."invoice_id" = g."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "invoices_removed_with_their_rows" AFTER DELETE ON "invoices"
  REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "invoice_records_removed"();
