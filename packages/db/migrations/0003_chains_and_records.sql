-- One hash chain per taxpayer NIF and environment, service-wide; every chain record of an invoice stays a row
-- of "invoices", linked to the invoice's first record. See docs/decisions/0003-chains-and-records.md.
DO $$
DECLARE clash text;
BEGIN
  -- A NIF registered by two accounts in the same environment cannot be split automatically: its two chains
  -- already fork at the authority. Support must settle it before this migration can run.
  SELECT string_agg(DISTINCT a.nif, ', ') INTO clash
  FROM taxpayers a JOIN taxpayers b ON a.nif = b.nif AND a.id <> b.id AND a.is_production = b.is_production;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'NIFs claimed by more than one taxpayer in the same environment: %', clash;
  END IF;
END $$;
--> statement-breakpoint
CREATE TABLE "chains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"taxpayer_id" uuid NOT NULL,
	"nif" varchar(9) NOT NULL,
	"is_production" boolean NOT NULL,
	"chain_length" integer DEFAULT 0 NOT NULL,
	"last_invoice_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chains_nif_environment_uq" UNIQUE("nif","is_production")
);
--> statement-breakpoint
ALTER TABLE "chains" ADD CONSTRAINT "chains_taxpayer_id_taxpayers_id_fk" FOREIGN KEY ("taxpayer_id") REFERENCES "public"."taxpayers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "chains_taxpayer_idx" ON "chains" USING btree ("taxpayer_id");
--> statement-breakpoint
-- Existing chains: the taxpayer's current environment plus every environment it already has records in.
INSERT INTO "chains" ("taxpayer_id", "nif", "is_production")
SELECT t.id, t.nif, t.is_production FROM taxpayers t
UNION
SELECT DISTINCT i.taxpayer_id, t.nif, i.is_production FROM invoices i JOIN taxpayers t ON t.id = i.taxpayer_id;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "chain_id" uuid;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "invoice_id" uuid;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "current_record_id" uuid;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "subsanacion" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "rechazo_previo" char(1);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "sin_registro_previo" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "cancellation_reason" varchar(500);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_taxpayer_chain_seq_uq";
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_taxpayer_number_date_uq";
--> statement-breakpoint
UPDATE "invoices" i SET
	"chain_id" = c.id,
	"invoice_id" = i.id,
	"current_record_id" = i.id,
	"chain_seq" = n.seq
FROM "chains" c, (
	SELECT id, row_number() OVER (PARTITION BY taxpayer_id, is_production ORDER BY chain_seq) AS seq FROM "invoices"
) n
WHERE c.taxpayer_id = i.taxpayer_id AND c.is_production = i.is_production AND n.id = i.id;
--> statement-breakpoint
UPDATE "chains" c SET
	"chain_length" = h.n,
	"last_invoice_id" = h.last_id
FROM (
	SELECT DISTINCT ON (chain_id) chain_id, id AS last_id, count(*) OVER (PARTITION BY chain_id) AS n
	FROM "invoices" ORDER BY chain_id, chain_seq DESC
) h
WHERE h.chain_id = c.id;
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "chain_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "invoice_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_chain_id_chains_id_fk" FOREIGN KEY ("chain_id") REFERENCES "public"."chains"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_chain_seq_uq" UNIQUE("chain_id","chain_seq");
--> statement-breakpoint
-- One invoice per number and date in a chain; its later records (corrections, cancellations) repeat them.
CREATE UNIQUE INDEX "invoices_chain_number_date_uq" ON "invoices" USING btree ("chain_id","invoice_number","invoice_date") WHERE "id" = "invoice_id";
--> statement-breakpoint
CREATE INDEX "invoices_invoice_seq_idx" ON "invoices" USING btree ("invoice_id","chain_seq");
--> statement-breakpoint
CREATE INDEX "invoices_current_record_idx" ON "invoices" USING btree ("current_record_id");
--> statement-breakpoint
ALTER TABLE "taxpayers" DROP COLUMN "chain_length";
--> statement-breakpoint
ALTER TABLE "taxpayers" DROP COLUMN "last_invoice_id";
