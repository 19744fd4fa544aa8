import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pollWhileRunning, recordOutput, type ServiceProcess } from '@vf/private-servers';

const ROOT = join(__dirname, '../../..');
const MAIN = join(ROOT, 'apps/worker/src/main.ts');

export interface WorkerProcess extends ServiceProcess {
  id: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the worker's entry point (what `npm run worker` runs) as a real child process. Node itself is the child,
 * with tsx as a loader, so that a signal (SIGKILL included) reaches the worker and not a wrapper.
 */
export function spawnWorker(id: string, env: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: { ...process.env, ...env, WORKER_ID: id },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output } = recordOutput(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { id, child, output, exited };
}

/**
 * Resolves once the process has logged that it started taking jobs. A start costs about two seconds of CPU (Node,
 * its TypeScript loader, the worker's modules); on a machine running two test suites at once that has taken more
 * than 30 s, so the limit only catches a start that never comes.
 */
export async function workerStarted(w: WorkerProcess, timeoutMs = 120_000): Promise<void> {
  await pollWhileRunning(w, async () => w.output.join('').includes('"worker started"'), `worker ${w.id} to start`, timeoutMs, 50);
}

export async function stopWorker(w: WorkerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill(signal);
  await w.exited;
}
