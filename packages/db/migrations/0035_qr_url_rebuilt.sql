-- A record's QR URL (about 115 bytes of its row) is made of columns the row already keeps: the issuer's NIF, the
-- number, the date, the total and the environment, plus whether it points at NO VERI*FACTU's service. Only that last
-- fact is kept now, and only when true (a NULL costs the row nothing); the URL is rebuilt where it is read (decision
-- 0065). Before the column goes, every stored URL is compared with its rebuild, encoded as application/
-- x-www-form-urlencoded like the service does: one that differs stops the migration, and nothing is dropped.
ALTER TABLE "invoices" ADD COLUMN "qr_no_verifactu" boolean;--> statement-breakpoint
UPDATE "invoices" SET "qr_no_verifactu" = true WHERE "qr_url" LIKE '%/ValidarQRNoVerifactu?%';--> statement-breakpoint
DO $$
DECLARE
  differing uuid;
BEGIN
  SELECT i.id INTO differing FROM "invoices" i
  WHERE i.qr_url IS DISTINCT FROM
    (CASE WHEN i.is_production THEN 'https://www2.agenciatributaria.gob.es' ELSE 'https://prewww2.aeat.es' END)
    || (CASE WHEN i.qr_no_verifactu THEN '/wlpl/TIKE-CONT/ValidarQRNoVerifactu?' ELSE '/wlpl/TIKE-CONT/ValidarQR?' END)
    || 'nif=' || i.issuer_nif
    || '&numserie=' || (CASE WHEN i.invoice_number ~ '^[A-Za-z0-9*._-]*$' THEN i.invoice_number ELSE (
         SELECT string_agg(CASE
             WHEN b BETWEEN 48 AND 57 OR b BETWEEN 65 AND 90 OR b BETWEEN 97 AND 122 OR b IN (42, 45, 46, 95) THEN chr(b)
             WHEN b = 32 THEN '+'
             ELSE '%' || upper(lpad(to_hex(b), 2, '0'))
           END, '' ORDER BY n)
         FROM (SELECT n, get_byte(convert_to(i.invoice_number, 'UTF8'), n) AS b
               FROM generate_series(0, octet_length(convert_to(i.invoice_number, 'UTF8')) - 1) n) bytes) END)
    || '&fecha=' || to_char(i.invoice_date, 'DD-MM-YYYY')
    || '&importe=' || i.total_amount::text
  LIMIT 1;
  IF differing IS NOT NULL THEN
    RAISE EXCEPTION 'the QR URL kept with record % is not the one its columns make: nothing was dropped', differing;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "qr_url";
--> statement-breakpoint
-- A record's first status (queued, or kept in NO VERI*FACTU) is implied by the record, at its creation time: the
-- append writes no status event for it (decision 0065). What fed the webhooks from that event's insert is written by
-- the append itself: an outbox row naming the record instead of an event.
ALTER TABLE "webhook_outbox" ADD COLUMN "record_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_outbox" ALTER COLUMN "status_event_id" DROP NOT NULL;--> statement-breakpoint
-- The events already kept that only said so (each record's first, its first status at its creation time, nothing
-- else) go; an outbox row not yet relayed names their record instead. Any other first event stays as it is.
CREATE TEMPORARY TABLE "implied_events" AS
SELECT f."id", f."invoice_id" FROM (
  SELECT DISTINCT ON (e."invoice_id") e."id", e."invoice_id", e."status", e."code", e."message", e."submission_id", e."at"
  FROM "invoice_status_events" e ORDER BY e."invoice_id", e."id"
) f JOIN "invoices" i ON i."id" = f."invoice_id"
WHERE f."status" = CASE WHEN i."authority_status" = 'kept' THEN 'kept' ELSE 'queued' END
  AND f."code" IS NULL AND f."message" IS NULL AND f."submission_id" IS NULL AND f."at" = i."created_at";--> statement-breakpoint
UPDATE "webhook_outbox" o SET "record_id" = m."invoice_id", "status_event_id" = NULL
FROM "implied_events" m WHERE o."status_event_id" = m."id";--> statement-breakpoint
DELETE FROM "invoice_status_events" e USING "implied_events" m WHERE e."id" = m."id";--> statement-breakpoint
DROP TABLE "implied_events";
