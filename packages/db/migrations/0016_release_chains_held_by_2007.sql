-- A 2007 (PrimerRegistro where the authority already holds records of the taxpayer and system) is an
-- AceptadoConErrores: the authority stored the record, and nothing forbids sending the next ones. Earlier versions
-- kept such a record in `error` and held every later record of its chain behind it (`waiting_for_earlier_record`).
-- The record is registered with its warning, as the authority answered; each with a history event (and so its
-- webhook events).
WITH registered AS (
  UPDATE "invoices" SET "authority_status" = 'accepted_with_warnings', "last_error" = NULL, "error_cause" = NULL, "updated_at" = now()
  WHERE "authority_status" = 'error' AND "authority_code" = 2007 AND "next_attempt_at" IS NULL
  RETURNING "id", "authority_code", "authority_message"
)
INSERT INTO "invoice_status_events" ("invoice_id", "status", "code", "message")
SELECT "id", 'accepted_with_warnings', "authority_code", 'accepted with errors: ' || concat_ws(' ', "authority_code", nullif("authority_message", ''))
FROM registered;--> statement-breakpoint
-- The records held behind them go back in the queue, unchanged, unless an earlier record of their chain still waits
-- for the user for another reason: the reconciler gives their chain its job, and they go in chain order.
WITH released AS (
  UPDATE "invoices" i SET "authority_status" = 'queued', "next_attempt_at" = NULL, "error_cause" = NULL, "last_error" = NULL, "updated_at" = now()
  WHERE i."authority_status" = 'error' AND i."error_cause" = 'waiting_for_earlier_record' AND i."next_attempt_at" IS NULL
    AND EXISTS (
      SELECT 1 FROM "invoices" s
      WHERE s."chain_id" = i."chain_id" AND s."chain_seq" < i."chain_seq"
        AND s."authority_status" = 'accepted_with_warnings' AND s."authority_code" = 2007
    )
    AND NOT EXISTS (
      SELECT 1 FROM "invoices" h
      WHERE h."chain_id" = i."chain_id" AND h."chain_seq" < i."chain_seq"
        AND h."authority_status" = 'error' AND h."next_attempt_at" IS NULL
        AND h."error_cause" IS DISTINCT FROM 'waiting_for_earlier_record'
    )
  RETURNING i."id"
)
INSERT INTO "invoice_status_events" ("invoice_id", "status", "message")
SELECT "id", 'queued', 'the earlier record was registered by the authority with 2007 and no longer holds the chain: sent again'
FROM released;
