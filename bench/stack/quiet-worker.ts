/** A worker using less than this share of one core over a second is waiting, not sending. */
const QUIET_SHARE = 0.05;
const INTERVAL_MS = 1000;

export interface QuietWait {
  waitedMs: number;
  /** False when the time limit came first. */
  quiet: boolean;
}

export interface QuietWaitDeps {
  /** The worker's CPU time so far (ms), null once it is gone. */
  cpuMs: () => number | null;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

/**
 * Waits until a worker has worked through what earlier workloads registered: its CPU over a second below 5% of a core.
 * Records it has not sent by then wait for the authority's waiting time, which costs nothing; full messages, which the
 * authority lets go at once, are signed and sent first. So a workload measured next shares the cores with the worker
 * sending its own records, not a backlog of the workload before it.
 */
export async function waitForQuietWorker(limitMs: number, deps: QuietWaitDeps): Promise<QuietWait> {
  const started = deps.now();
  let before = deps.cpuMs();
  for (;;) {
    await deps.sleep(INTERVAL_MS);
    const after = deps.cpuMs();
    const waitedMs = deps.now() - started;
    if (before === null || after === null) return { waitedMs, quiet: false };
    if (after - before < QUIET_SHARE * INTERVAL_MS) return { waitedMs, quiet: true };
    if (waitedMs >= limitMs) return { waitedMs, quiet: false };
    before = after;
  }
}
