-- Each record as it was signed (XAdES, docs/decisions/0012-records-signed-by-the-workers.md): written once, before the
-- first message that carries it, and embedded byte for byte in that message and every later one. A table of its own,
-- so that the invoice rows the API reads and writes on every registration do not carry the signed bytes.
CREATE TABLE "signed_records" (
	"invoice_id" uuid PRIMARY KEY NOT NULL,
	"xml" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signed_records" ADD CONSTRAINT "signed_records_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
