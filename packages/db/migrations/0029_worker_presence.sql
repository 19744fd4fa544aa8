-- The workers running now, each seen at every summary sweep: the last one to stop writes the NO VERI*FACTU summary
-- due before the system shuts down (Orden HAC/1177/2024 art. 9.2); a worker that stops while others run leaves it to them.
CREATE TABLE "worker_presence" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
