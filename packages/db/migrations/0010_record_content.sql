-- What a RegistroAlta can carry beyond the API's original fields: several recipients, issuance by the recipient or
-- a third party, the simplified-invoice, no-recipient and coupon flags, the substituted invoices of an F3, the recargo of
-- a substitution and the cost base of regime 06. None of them enters the huella; they are stored so that the record
-- rebuilt for sending is the very XML that was generated. Defaults keep every existing record as it was.
ALTER TABLE "invoices" ADD COLUMN "additional_recipients" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "issued_by" char(1);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "third_party" jsonb;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "simplified_art_72_73" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "without_recipient_art_61d" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "coupon" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "rectified_surcharge_amount" numeric(14, 2);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "substituted_invoices" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "cost_base_amount" numeric(14, 2);
