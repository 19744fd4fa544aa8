-- Flow control, failure backoff and the single-sender lease follow the chain (one per NIF and environment), not the
-- taxpayer: a taxpayer's sandbox and production chains are sent independently. See
-- docs/decisions/0006-one-chain-per-nif-and-environment.md.
ALTER TABLE "submissions" ADD COLUMN "chain_id" uuid;
--> statement-breakpoint
-- Every message carried records of one chain (a batch stops where the environment changes).
UPDATE "submissions" s SET "chain_id" = c.chain_id
FROM (
	SELECT DISTINCT ON (si.submission_id) si.submission_id, i.chain_id
	FROM "submission_invoices" si JOIN "invoices" i ON i.id = si.invoice_id
	ORDER BY si.submission_id, si.position
) c
WHERE c.submission_id = s.id;
--> statement-breakpoint
-- A submission whose records are all gone: its taxpayer's chain in the taxpayer's current environment.
UPDATE "submissions" s SET "chain_id" = c.id
FROM "taxpayers" t JOIN "chains" c ON c.taxpayer_id = t.id AND c.is_production = t.is_production
WHERE s.chain_id IS NULL AND t.id = s.taxpayer_id;
--> statement-breakpoint
ALTER TABLE "submissions" ALTER COLUMN "chain_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_chain_id_chains_id_fk" FOREIGN KEY ("chain_id") REFERENCES "public"."chains"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "submissions_chain_idx" ON "submissions" USING btree ("chain_id","started_at");
--> statement-breakpoint
ALTER TABLE "send_states" ADD COLUMN "chain_id" uuid;
--> statement-breakpoint
ALTER TABLE "send_states" DROP CONSTRAINT "send_states_pkey";
--> statement-breakpoint
ALTER TABLE "send_states" DROP CONSTRAINT "send_states_taxpayer_id_taxpayers_id_fk";
--> statement-breakpoint
-- Each chain of the taxpayer inherits the shared timing and lease, so none may send earlier than the shared row
-- allowed. A run of failed sends belongs to the chain those sends carried (the taxpayer's latest submission; with
-- none, the chain of its current environment): only that chain keeps the backoff count and the outage's start.
INSERT INTO "send_states" ("chain_id", "taxpayer_id", "next_send_at", "wait_seconds", "last_send_at", "consecutive_failures",
	"failing_since", "lease_owner", "lease_until")
SELECT c.id, o.taxpayer_id, o.next_send_at, o.wait_seconds, o.last_send_at,
	CASE WHEN c.id = f.chain_id THEN o.consecutive_failures ELSE 0 END,
	CASE WHEN c.id = f.chain_id THEN o.failing_since END,
	o.lease_owner, o.lease_until
FROM "send_states" o
JOIN "chains" c ON c.taxpayer_id = o.taxpayer_id
LEFT JOIN LATERAL (
	SELECT coalesce(
		(SELECT s.chain_id FROM "submissions" s WHERE s.taxpayer_id = o.taxpayer_id ORDER BY s.started_at DESC, s.id DESC LIMIT 1),
		(SELECT cc.id FROM "chains" cc JOIN "taxpayers" t ON t.id = cc.taxpayer_id AND t.is_production = cc.is_production WHERE t.id = o.taxpayer_id)
	) AS chain_id
) f ON true
WHERE o.chain_id IS NULL;
--> statement-breakpoint
DELETE FROM "send_states" WHERE "chain_id" IS NULL;
--> statement-breakpoint
ALTER TABLE "send_states" DROP COLUMN "taxpayer_id";
--> statement-breakpoint
ALTER TABLE "send_states" ADD CONSTRAINT "send_states_pkey" PRIMARY KEY ("chain_id");
--> statement-breakpoint
ALTER TABLE "send_states" ADD CONSTRAINT "send_states_chain_id_chains_id_fk" FOREIGN KEY ("chain_id") REFERENCES "public"."chains"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The sender's queries (waiting records, the first held record) now look within one chain.
CREATE INDEX "invoices_chain_status_seq_idx" ON "invoices" USING btree ("chain_id","authority_status","chain_seq");
