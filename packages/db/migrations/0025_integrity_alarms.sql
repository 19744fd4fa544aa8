-- NO VERI*FACTU (Orden HAC/1177/2024 arts. 6.f and 7.j): an anomaly found in a chain raises an alarm that stays until
-- integrity is guaranteed again. One row an anomaly; the chain is in alarm while any of its rows is not cleared.
CREATE TABLE "integrity_alarms" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "chain_id" uuid NOT NULL REFERENCES "chains"("id") ON DELETE CASCADE,
  -- 'records': the chain of invoice records; 'events': its event log.
  "subject" text NOT NULL,
  -- What was wrong: 'hash' (the record no longer hashes to its huella), 'signature' (missing or not valid),
  -- 'time' (generated more than a minute ahead of the clock).
  "anomaly" text NOT NULL,
  "record_id" uuid,
  "detail" text NOT NULL,
  "raised_at" timestamp with time zone DEFAULT now() NOT NULL,
  "cleared_at" timestamp with time zone,
  CONSTRAINT "integrity_alarms_subject_ck" CHECK ("subject" IN ('records', 'events')),
  CONSTRAINT "integrity_alarms_anomaly_ck" CHECK ("anomaly" IN ('hash', 'signature', 'time', 'chain'))
);--> statement-breakpoint
CREATE INDEX "integrity_alarms_open_idx" ON "integrity_alarms" ("chain_id") WHERE "cleared_at" IS NULL;
