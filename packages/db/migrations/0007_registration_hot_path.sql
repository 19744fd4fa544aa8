-- Registration at the database's speed (docs/decisions/0007-append-as-compare-and-swap.md,
-- 0008-quota-allowances-per-chain.md).
--
-- The monthly quota no longer lives in one counter row per account, which every registration of the account
-- updated. Each chain holds an allowance of the account's quota for the current month and counts its own
-- registrations on its own head row, which an append updates anyway; the account's row in "quota_allocations"
-- is touched only when a chain needs a new allowance (once per block of registrations).
ALTER TABLE "chains" ADD COLUMN "usage_period" text;
--> statement-breakpoint
ALTER TABLE "chains" ADD COLUMN "usage_used" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "chains" ADD COLUMN "usage_allowance" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "chains" ADD CONSTRAINT "chains_usage_within_allowance" CHECK ("usage_used" <= "usage_allowance");
--> statement-breakpoint
CREATE TABLE "quota_allocations" (
	"account_id" uuid NOT NULL,
	"period" text NOT NULL,
	"allocated" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "quota_allocations_pk" PRIMARY KEY("account_id","period")
);
--> statement-breakpoint
ALTER TABLE "quota_allocations" ADD CONSTRAINT "quota_allocations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- This month's registrations so far (Europe/Madrid months, as the API counts them), each chain's allowance
-- exactly what it used.
UPDATE "chains" c SET
	"usage_period" = to_char(now() AT TIME ZONE 'Europe/Madrid', 'YYYY-MM'),
	"usage_used" = u.n,
	"usage_allowance" = u.n
FROM (
	SELECT c2.id, count(i.id)::int AS n
	FROM "chains" c2
	LEFT JOIN "invoices" i ON i.chain_id = c2.id AND i.record_type = 'registration'
		AND to_char(i.created_at AT TIME ZONE 'Europe/Madrid', 'YYYY-MM') = to_char(now() AT TIME ZONE 'Europe/Madrid', 'YYYY-MM')
	GROUP BY c2.id
) u
WHERE u.id = c.id;
--> statement-breakpoint
INSERT INTO "quota_allocations" ("account_id", "period", "allocated")
SELECT t.account_id, c.usage_period, sum(c.usage_allowance)::int
FROM "chains" c JOIN "taxpayers" t ON t.id = c.taxpayer_id
WHERE c.usage_period IS NOT NULL
GROUP BY t.account_id, c.usage_period;
--> statement-breakpoint
DROP TABLE "usage_counters";
--> statement-breakpoint
-- The highest chain position a sender has put in a message: the API reads how many records wait to be sent
-- (chain_length - sent_through_seq) without counting rows, to wake the chain's sender when 1,000 are waiting.
ALTER TABLE "send_states" ADD COLUMN "sent_through_seq" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE "send_states" s SET "sent_through_seq" = coalesce((
	SELECT max(i.chain_seq) FROM "invoices" i WHERE i.chain_id = s.chain_id AND i.authority_status <> 'queued'
), 0);
--> statement-breakpoint
-- The webhook outbox is fed once per statement rather than once per row: a registration of 1,000 invoices
-- inserts 1,000 status events in one statement, and the check of the account's endpoints runs once.
DROP TRIGGER "invoice_status_events_webhook_outbox" ON "invoice_status_events";
--> statement-breakpoint
DROP FUNCTION "webhook_outbox_capture"();
--> statement-breakpoint
CREATE FUNCTION "webhook_outbox_capture"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_outbox" ("status_event_id")
  SELECT e."id" FROM "new_events" e JOIN "invoices" i ON i."id" = e."invoice_id"
  WHERE EXISTS (SELECT 1 FROM "webhook_endpoints" w WHERE w."account_id" = i."account_id")
  ORDER BY e."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "invoice_status_events_webhook_outbox" AFTER INSERT ON "invoice_status_events"
  REFERENCING NEW TABLE AS "new_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "webhook_outbox_capture"();
