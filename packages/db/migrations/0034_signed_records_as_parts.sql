-- A signed record packed (decision 0048) still keeps about 690 bytes a record: its digests, its signature value and
-- the record's own text, which its row already holds. A record of the signer's own form is now kept as the values
-- only its signature has (the RSA value, the signing time, the signature's id when it is not the record's) and rebuilt
-- from its row with the writer of its `form`; the store rebuilds it before writing and keeps the packed form whenever
-- the rebuilt bytes are not the bytes sent (docs/decisions/0064-signed-records-rebuilt-from-their-parts.md).
-- SigningCertificate's content, the same in every record of one certificate, is kept once with the certificate.
ALTER TABLE "signing_certificates" ADD COLUMN "signing_certificate" text;--> statement-breakpoint
ALTER TABLE "signed_records" ADD COLUMN "form" smallint;--> statement-breakpoint
ALTER TABLE "signed_records" ADD COLUMN "signature_value" bytea;--> statement-breakpoint
ALTER TABLE "signed_records" ADD COLUMN "signing_time" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "signed_records" ADD COLUMN "signature_id" uuid;--> statement-breakpoint
-- 256 bytes of random: PostgreSQL's compression would spend CPU to gain nothing.
ALTER TABLE "signed_records" ALTER COLUMN "signature_value" SET STORAGE PLAIN;--> statement-breakpoint
ALTER TABLE "signed_records" DROP CONSTRAINT "signed_records_one_form";--> statement-breakpoint
ALTER TABLE "signed_records" ADD CONSTRAINT "signed_records_one_form" CHECK (num_nonnulls("xml", "packed", "form") = 1);--> statement-breakpoint
ALTER TABLE "signed_records" ADD CONSTRAINT "signed_records_parts_whole" CHECK (
	("form" IS NULL) = ("signature_value" IS NULL)
	AND ("form" IS NULL) = ("signing_time" IS NULL)
	AND ("form" IS NULL OR "certificate_id" IS NOT NULL)
	AND ("form" IS NOT NULL OR "signature_id" IS NULL)
);
