import { spawn } from 'node:child_process';
import path from 'node:path';
import { cpuMs } from '../stack/process-meter';
import { ROOT, type Processes } from '../stack/processes';
import type { LoadResult, LoadSpec } from './load-spec';
import type { MeasurePhase, PhaseMessage } from './measure-phase';

const MAIN = path.join(__dirname, 'load-main.ts');

/** What the harness does when the load generator reaches a phase; the load waits for it to finish. */
export type PhaseHooks = Partial<Record<MeasurePhase, () => void | Promise<void>>>;

/** Runs one load in its own load-generator process and returns what it measured. */
export function runLoad(processes: Processes, spec: LoadSpec, hooks: PhaseHooks = {}): Promise<LoadResult> {
  // The spec travels in the environment, not on the command line, where `ps` would show the API key.
  const env = { ...process.env, BENCH_LOAD_SPEC: JSON.stringify(spec) };
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  processes.track(child);
  let out = '';
  let hookError: Error | undefined;
  const cpuAt: Partial<Record<MeasurePhase, number | null>> = {};
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.on('message', (message: PhaseMessage) => {
    cpuAt[message.phase] = cpuMs(child.pid!);
    Promise.resolve()
      .then(() => hooks[message.phase]?.())
      .catch((err: Error) => (hookError ??= err))
      .finally(() => child.connected && child.send(message));
  });
  return new Promise<LoadResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`load generator (${spec.kind}) exited with ${signal ?? code}`));
      if (hookError) return reject(hookError);
      const last = out.trim().split('\n').pop() ?? '';
      try {
        const { measuring, measured } = cpuAt;
        const loadCpuMs = measuring != null && measured != null ? measured - measuring : null;
        resolve({ ...(JSON.parse(last) as LoadResult), loadCpuMs });
      } catch {
        reject(new Error(`load generator printed no result: ${out.slice(-500)}`));
      }
    });
  });
}
