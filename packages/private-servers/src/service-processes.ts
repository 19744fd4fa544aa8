import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVICE_ENTRY_POINTS, SERVICE_NODE_FLAGS, type ServiceRole } from '@vf/config';
import { recordOutput, type ServiceProcess } from './service-process';

/** The repository's root, from this package's src/ or dist/. */
export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * Starts one of the service processes as an operator does (`npm run api`, `worker`, `sim`, `migrate`): Node itself
 * running the compiled entry point with the services' flags, no loader and no wrapper, so that a signal (SIGKILL
 * included) reaches the service. Jest's global setup builds dist/ first.
 */
export function startService(role: ServiceRole, env: NodeJS.ProcessEnv): ServiceProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS[role], path.join(REPOSITORY_ROOT, SERVICE_ENTRY_POINTS[role])], {
    cwd: REPOSITORY_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return recordOutput(child);
}

/** Resolves with how the process ended (at once if it already has). */
export function ended(service: ServiceProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const { child } = service;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Sends `signal` unless the process has ended, and resolves once it has. */
export async function stopService(service: ServiceProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const end = ended(service);
  if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill(signal);
  await end;
}
