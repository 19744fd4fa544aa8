-- Per-plan monthly allowances of tax ID checks (census and VIES, one per tax ID asked), counted on each account's
-- evidence of its checks in the calendar month (Europe/Madrid).
ALTER TABLE "plans" ADD COLUMN "monthly_tax_id_checks" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
UPDATE "plans" SET "monthly_tax_id_checks" = 20000 WHERE "id" = 'pro';--> statement-breakpoint
UPDATE "plans" SET "monthly_tax_id_checks" = 200000 WHERE "id" = 'business';
