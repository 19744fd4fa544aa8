-- The optional periodic full checks of the NO VERI*FACTU chains: one row per chain and period, claimed by the worker
-- that runs it. The primary key decides, however many workers sweep at once, that a period's check runs once.
CREATE TABLE "periodic_checks" (
	"chain_id" uuid NOT NULL REFERENCES "chains"("id") ON DELETE CASCADE,
	"period_start" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "periodic_checks_pk" PRIMARY KEY ("chain_id", "period_start")
);
