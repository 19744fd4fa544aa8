-- Record lifecycle: `pending` was never produced; every waiting or failed record says when it is tried next and,
-- for causes on the service's side, which one (error_cause, see @vf/core authority-codes);
-- a taxpayer's send state remembers since when its sends have been failing (an outage).
UPDATE "invoices" SET "authority_status" = 'queued' WHERE "authority_status" = 'pending';--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "error_cause" text;--> statement-breakpoint
ALTER TABLE "send_states" ADD COLUMN "failing_since" timestamp with time zone;
