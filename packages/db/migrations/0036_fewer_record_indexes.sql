-- Index entries a record paid for that no query needs (decision 0069), about 150 bytes an invoice at a million:
-- - the chain index the workers read by status held every record; they look only for records not at rest (queued,
--   sent, error), and their statements now write the statuses as literals, which a generic plan matches against the
--   index's condition. Records at rest (accepted, rejected, kept) are counted from the index of statuses;
-- - the index of current_record_id served only the overview's counts and latest problems, which looked among all
--   records for those some first row names as current; they read the first rows now, which keep their current
--   record's status and type (migrations 0027 and 0030), as the lists do;
-- - a status event had a primary key of its own id beside the (invoice_id, id) index its records are read by. The
--   event is found by both: its outbox row names its record as well (the trigger below), and (invoice_id, id) is the
--   primary key.
DROP INDEX "invoices_chain_status_seq_idx";--> statement-breakpoint
CREATE INDEX "invoices_chain_status_seq_idx" ON "invoices" USING btree ("chain_id", "authority_status", "chain_seq")
  WHERE "authority_status" NOT IN ('accepted', 'accepted_with_warnings', 'rejected', 'kept');--> statement-breakpoint
DROP INDEX "invoices_current_record_idx";--> statement-breakpoint
UPDATE "webhook_outbox" o SET "record_id" = e."invoice_id" FROM "invoice_status_events" e
WHERE e."id" = o."status_event_id" AND o."record_id" IS NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "webhook_outbox_capture"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_outbox" ("status_event_id", "record_id")
  SELECT e."id", e."invoice_id" FROM "new_events" e JOIN "invoices" i ON i."id" = e."invoice_id"
  WHERE EXISTS (SELECT 1 FROM "webhook_endpoints" w WHERE w."account_id" = i."account_id")
  ORDER BY e."id";
  RETURN NULL;
END $$;--> statement-breakpoint
ALTER TABLE "invoice_status_events" DROP CONSTRAINT "invoice_status_events_pkey";--> statement-breakpoint
DROP INDEX "invoice_status_events_invoice_idx";--> statement-breakpoint
ALTER TABLE "invoice_status_events" ADD CONSTRAINT "invoice_status_events_pkey" PRIMARY KEY ("invoice_id", "id");
