import type { Readiness } from './readiness';

/** Liveness: the process is up and answering (it may still be waiting for a dependency). */
export const LIVE_PATH = '/health/live';
/** Readiness: the process is serving and what it needs answers. */
export const READY_PATH = '/health/ready';

export interface ProbeAnswer {
  status: 200 | 503;
  body: { status: string; checks?: Record<string, string> };
}

/** What a probe of `path` answers: the same on the API's port and on each worker's own listener. */
export async function probeAnswer(readiness: Readiness, path: typeof LIVE_PATH | typeof READY_PATH): Promise<ProbeAnswer> {
  if (path === LIVE_PATH) return { status: 200, body: { status: 'ok' } };
  const report = await readiness.report();
  return { status: report.ready ? 200 : 503, body: { status: report.status, checks: report.checks } };
}
