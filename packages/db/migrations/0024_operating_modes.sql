-- A taxpayer's way of complying in one environment, kept on its chain (one per NIF and environment): VERI*FACTU (each
-- record sent as it is made) or NO VERI*FACTU (each record signed when it is made, kept, sent only on request).
-- `verifactu_until`: the FechaFinVeriFactu declared while in VERI*FACTU (31 December of the year it was declared in);
-- NO VERI*FACTU applies from the day after. `mode_version` changes with every change of mode: an append built on
-- another version is not written (its compare-and-swap), so no record is ever written in a mode no longer in force.
-- Records kept in NO VERI*FACTU have the authority status `kept`: the workers never send them.
ALTER TABLE "chains"
  ADD COLUMN "operating_mode" text DEFAULT 'verifactu' NOT NULL,
  ADD COLUMN "verifactu_until" date,
  ADD COLUMN "mode_since" timestamp with time zone DEFAULT now() NOT NULL,
  ADD COLUMN "mode_version" integer DEFAULT 0 NOT NULL,
  ADD CONSTRAINT "chains_operating_mode_ck" CHECK ("operating_mode" IN ('verifactu', 'no_verifactu')),
  ADD CONSTRAINT "chains_verifactu_until_ck" CHECK ("verifactu_until" IS NULL OR "operating_mode" = 'verifactu');
