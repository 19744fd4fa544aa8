import { ended, pollWhileRunning, startService, type ServiceProcess } from '@vf/private-servers';

export interface WorkerProcess extends ServiceProcess {
  id: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the compiled worker (what `npm run worker` runs) as a real child process, Node itself, no wrapper. */
export function spawnWorker(id: string, env: NodeJS.ProcessEnv): WorkerProcess {
  const service = startService('worker', { ...process.env, ...env, WORKER_ID: id });
  return { ...service, id, exited: ended(service) };
}

/**
 * Resolves once the process has logged that it started taking jobs. A start costs about a second of CPU (Node and
 * the worker's modules); on a machine running two test suites at once that has taken far longer, so the limit only
 * catches a start that never comes.
 */
export async function workerStarted(w: WorkerProcess, timeoutMs = 120_000): Promise<void> {
  await pollWhileRunning(w, async () => w.output.join('').includes('"worker started"'), `worker ${w.id} to start`, timeoutMs, 50);
}

export async function stopWorker(w: WorkerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill(signal);
  await w.exited;
}
