-- What the census said of an invoice's recipients when its registration asked for `recipient_check=warn`, kept on the
-- invoice (null when no check was asked); and an account's default for `recipient_check`, used when a registration
-- asks for none (null: no check).
ALTER TABLE "invoices" ADD COLUMN "recipient_check" jsonb;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "recipient_check" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_recipient_check" CHECK ("recipient_check" IN ('warn', 'refuse'));
