-- Sandbox scenarios (docs/decisions/0040-scenario-chains-apart.md): a sandbox taxpayer's records that name a scenario
-- go on a chain of their own, sent only to the simulator, so the chain its preproduction service receives never names
-- a record it did not receive. One scenario chain per NIF, in the sandbox only; the record keeps the scenario it was
-- registered under (never part of the record itself: not hashed, not in the XML or the QR).
ALTER TABLE "chains" ADD COLUMN "scenario" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chains" DROP CONSTRAINT "chains_nif_environment_uq";--> statement-breakpoint
ALTER TABLE "chains" ADD CONSTRAINT "chains_nif_environment_uq" UNIQUE ("nif", "is_production", "scenario");--> statement-breakpoint
ALTER TABLE "chains" ADD CONSTRAINT "chains_scenario_in_sandbox" CHECK (NOT ("scenario" AND "is_production"));--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "sandbox_scenario" text;
