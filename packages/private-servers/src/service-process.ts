import type { ChildProcess } from 'node:child_process';
import { pollUntil } from './poll-until';

/** A service run as a child process by a test, with everything it has printed so far. */
export interface ServiceProcess {
  child: ChildProcess;
  output: string[];
}

/** Keeps everything `child` prints (it must have been spawned with piped stdout and stderr). */
export function recordOutput(child: ChildProcess): ServiceProcess {
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

/**
 * pollUntil for a service in a child process. If the process ends first, this fails at once instead of polling a
 * dead port to the deadline; either way the error carries everything the process printed.
 */
export async function pollWhileRunning<T>(
  service: ServiceProcess,
  probe: () => Promise<T | false | undefined>,
  what: string,
  timeoutMs: number,
  everyMs?: number,
): Promise<T> {
  const { child, output } = service;
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  let outcome: { value: T } | 'ended';
  try {
    outcome = await pollUntil(
      async () => (ended() ? 'ended' : await probe().then((value) => value && { value })),
      what,
      timeoutMs,
      everyMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; the process printed:\n${output.join('')}`);
  }
  if (outcome === 'ended') {
    throw new Error(`the process ended (${child.exitCode ?? child.signalCode}) while waiting for ${what}; it printed:\n${output.join('')}`);
  }
  return outcome.value;
}
