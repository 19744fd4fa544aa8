-- A computer system that declares it supports one taxpayer (TipoUsoPosibleMultiOT=N) keeps records for one taxpayer
-- only: the first that registers an invoice with it. Set by the registration that first uses the system, under the
-- system row's lock, so two taxpayers can never both take it. Existing single-taxpayer systems are bound to the
-- taxpayer of their earliest record.
ALTER TABLE "computer_systems" ADD COLUMN "sole_taxpayer_id" uuid;
--> statement-breakpoint
ALTER TABLE "computer_systems" ADD CONSTRAINT "computer_systems_sole_taxpayer_id_taxpayers_id_fk" FOREIGN KEY ("sole_taxpayer_id") REFERENCES "public"."taxpayers"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
UPDATE "computer_systems" s SET "sole_taxpayer_id" = (
  SELECT i."taxpayer_id" FROM "invoices" i WHERE i."computer_system_id" = s."id" ORDER BY i."created_at", i."chain_seq" LIMIT 1
) WHERE NOT s."supports_multiple_taxpayers";
