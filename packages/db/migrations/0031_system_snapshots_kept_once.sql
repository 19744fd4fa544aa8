-- Every record kept its SistemaInformatico block as JSON (about 270 bytes, the same on every record of a system
-- version): a ninth of an invoice's bytes (docs/scaling.md). It is now kept once, by an id its content names, and each
-- record refers to it (docs/decisions/0058-system-snapshots-kept-once.md). The append statement inserts a snapshot it
-- has not seen (ON CONFLICT DO NOTHING) beside the records naming it, so no foreign key is checked per record: the
-- statement that writes the reference writes what it refers to, and a snapshot is never changed nor deleted.
CREATE TABLE "system_snapshots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"snapshot" jsonb NOT NULL
);--> statement-breakpoint
-- The records kept before: one snapshot per distinct block, named by the MD5 of its text (the id only has to differ
-- between different blocks; the API names the ones it writes from then on by their own digest).
INSERT INTO "system_snapshots" ("id", "snapshot")
SELECT DISTINCT md5("system_snapshot"::text)::uuid, "system_snapshot" FROM "invoices";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "system_snapshot_id" uuid;--> statement-breakpoint
UPDATE "invoices" SET "system_snapshot_id" = md5("system_snapshot"::text)::uuid;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "system_snapshot_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" DROP COLUMN "system_snapshot";
