-- NO VERI*FACTU's event log (Orden HAC/1177/2024 art. 9, EventosSIF.xsd): one chain of events per taxpayer chain
-- (NIF and environment) and computer system. `event_chains` is its head, locked while an event is appended (events
-- are few: no compare-and-swap needed). Each event is kept as it was signed, with the columns its successor and the
-- checks read. A summary (type 10) covers the period from the end of the one before: the partial unique index makes
-- a second summary from the same start impossible, whatever the number of workers writing them.
CREATE TABLE "event_chains" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "chain_id" uuid NOT NULL REFERENCES "chains"("id") ON DELETE CASCADE,
  "computer_system_id" uuid NOT NULL REFERENCES "computer_systems"("id") ON DELETE CASCADE,
  "length" integer DEFAULT 0 NOT NULL,
  "last_event_id" uuid,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "event_chains_chain_system_uq" UNIQUE ("chain_id", "computer_system_id")
);--> statement-breakpoint
CREATE TABLE "sif_events" (
  "id" uuid PRIMARY KEY NOT NULL,
  "event_chain_id" uuid NOT NULL REFERENCES "event_chains"("id") ON DELETE CASCADE,
  "seq" integer NOT NULL,
  "event_type" char(2) NOT NULL,
  "generated_at" timestamp with time zone NOT NULL,
  "generated_at_literal" text NOT NULL,
  "hash" char(64) NOT NULL,
  "previous_hash" char(64),
  -- The period a summary (type 10 only) covers: from the end of the one before, to a six-hour boundary or a shutdown.
  "period_start" timestamp with time zone,
  "period_end" timestamp with time zone,
  "xml" text NOT NULL,
  CONSTRAINT "sif_events_chain_seq_uq" UNIQUE ("event_chain_id", "seq"),
  CONSTRAINT "sif_events_period_ck" CHECK (("event_type" = '10') = ("period_start" IS NOT NULL AND "period_end" IS NOT NULL))
);--> statement-breakpoint
CREATE UNIQUE INDEX "sif_events_one_summary_a_period_uq" ON "sif_events" ("event_chain_id", "period_start") WHERE "event_type" = '10';--> statement-breakpoint
CREATE INDEX "sif_events_chain_time_idx" ON "sif_events" ("event_chain_id", "generated_at");
