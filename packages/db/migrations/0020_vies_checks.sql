-- VIES's checks of EU VAT numbers kept as evidence beside the census's: the consultation number VIES gives when the
-- requester's own VAT number is sent (what the European Commission tells traders to keep), and the fault code of an
-- answer VIES could not give.
ALTER TABLE "tax_id_checks" ADD COLUMN "request_identifier" text;--> statement-breakpoint
ALTER TABLE "tax_id_checks" ADD COLUMN "fault_code" text;
