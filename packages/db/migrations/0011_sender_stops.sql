-- Certificates whose access the authority suspended (code 4141): every send under one stops until an operator
-- resumes it (npm run sender-stops -- resume <fingerprint>). One row per stopped certificate, deleted on resume.
CREATE TABLE "sender_stops" (
	"certificate_fingerprint" text PRIMARY KEY NOT NULL,
	"certificate_subject" text NOT NULL,
	"code" integer NOT NULL,
	"message" text NOT NULL,
	"stopped_at" timestamp with time zone DEFAULT now() NOT NULL
);
