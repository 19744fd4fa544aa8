-- Remissions on the authority's request (requerimiento): a NO VERI*FACTU taxpayer's kept records of a period, sent
-- signed and unchanged to RequerimientoSOAP. Each remission is planned whole when it starts (its messages and the
-- records of each, in chain order), so a message that goes again after a fault carries exactly what it carried; the
-- lease and flow control of the remission's sender live on its row, as a chain's live in send_states.
CREATE TABLE "remissions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "account_id" uuid NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "taxpayer_id" uuid NOT NULL REFERENCES "taxpayers"("id") ON DELETE CASCADE,
  "chain_id" uuid NOT NULL REFERENCES "chains"("id") ON DELETE CASCADE,
  "is_production" boolean NOT NULL,
  "requirement_reference" varchar(18) NOT NULL,
  "period_from" date NOT NULL,
  "period_to" date NOT NULL,
  "status" text DEFAULT 'sending' NOT NULL,
  "record_count" integer NOT NULL,
  "message_count" integer NOT NULL,
  "next_send_at" timestamp with time zone DEFAULT now() NOT NULL,
  "consecutive_failures" integer DEFAULT 0 NOT NULL,
  "lease_owner" text,
  "lease_until" timestamp with time zone,
  "error_code" integer,
  "error_message" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone,
  CONSTRAINT "remissions_status_check" CHECK ("status" IN ('sending', 'completed', 'failed'))
);--> statement-breakpoint
CREATE INDEX "remissions_taxpayer_idx" ON "remissions" ("taxpayer_id", "created_at" DESC);--> statement-breakpoint
-- One remission at a time per chain: the authority's waiting time is per taxpayer, and two remissions sending at once
-- would interleave their messages and their FinRequerimiento.
CREATE UNIQUE INDEX "remissions_one_sending_per_chain" ON "remissions" ("chain_id") WHERE "status" = 'sending';--> statement-breakpoint
CREATE TABLE "remission_messages" (
  "remission_id" uuid NOT NULL REFERENCES "remissions"("id") ON DELETE CASCADE,
  "seq" integer NOT NULL,
  "invoice_ids" uuid[] NOT NULL,
  "is_last" boolean NOT NULL,
  "status" text DEFAULT 'waiting' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "csv" text,
  "send_state" text,
  "accepted" integer,
  "accepted_with_errors" integer,
  "duplicates" integer,
  "rejected" integer,
  "problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "last_error" text,
  "request_xml" text,
  "response_xml" text,
  "sent_at" timestamp with time zone,
  "answered_at" timestamp with time zone,
  CONSTRAINT "remission_messages_pk" PRIMARY KEY ("remission_id", "seq"),
  CONSTRAINT "remission_messages_status_check" CHECK ("status" IN ('waiting', 'in_flight', 'answered', 'refused'))
);
