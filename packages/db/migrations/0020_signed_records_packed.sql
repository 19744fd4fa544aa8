-- A signed record repeats its signer's certificate (about 1.3 KB of base64) and about 4 KB of markup every record of
-- that certificate shares: about 5.6 KB a record once lz4 had its turn. Now each certificate is kept once, with the
-- first record it signed (its certificate cut out) as a deflate dictionary, and each record as the raw deflate of its
-- bytes without the certificate, against that dictionary: about 0.5 KB. The store puts the certificate back and
-- reads the exact bytes that were sent (docs/decisions/0048-signed-records-packed-per-certificate.md). Rows written
-- before keep their text in `xml`; a row holds one form or the other.
CREATE TABLE "signing_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"digest" bytea NOT NULL,
	"certificate" text NOT NULL,
	"dictionary" bytea NOT NULL,
	CONSTRAINT "signing_certificates_digest_uq" UNIQUE ("digest")
);--> statement-breakpoint
ALTER TABLE "signed_records" ALTER COLUMN "xml" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "signed_records" ADD COLUMN "certificate_id" integer REFERENCES "signing_certificates"("id") ON DELETE restrict;--> statement-breakpoint
ALTER TABLE "signed_records" ADD COLUMN "packed" bytea;--> statement-breakpoint
-- Already compressed: PostgreSQL's own compression would spend CPU to gain nothing.
ALTER TABLE "signed_records" ALTER COLUMN "packed" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "signed_records" ADD CONSTRAINT "signed_records_one_form" CHECK ((xml IS NULL) <> (packed IS NULL));
