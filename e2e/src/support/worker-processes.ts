import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const MAIN = join(ROOT, 'apps/worker/src/main.ts');

export interface WorkerProcess {
  id: string;
  child: ChildProcess;
  /** Everything the process wrote, for diagnosing a failure. */
  output: string[];
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
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
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
  const deadline = Date.now() + timeoutMs;
  while (!w.output.join('').includes('"worker started"')) {
    if (w.child.exitCode !== null) throw new Error(`worker ${w.id} exited early:\n${w.output.join('')}`);
    if (Date.now() > deadline) throw new Error(`worker ${w.id} did not start:\n${w.output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function stopWorker(w: WorkerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill(signal);
  await w.exited;
}
