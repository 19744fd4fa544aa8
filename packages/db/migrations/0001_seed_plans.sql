-- Plans live in the database; a new account gets the default plan.
INSERT INTO "plans" ("id", "name", "monthly_quota", "is_default") VALUES
  ('free', 'Free', 100, true),
  ('pro', 'Pro', 5000, false),
  ('business', 'Business', 100000, false)
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "plans_single_default_uq" ON "plans" ("is_default") WHERE "is_default";
