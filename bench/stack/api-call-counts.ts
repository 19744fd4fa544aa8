import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Service } from './processes';

/** Preloaded into the API by the bench (`--require`): counts its PostgreSQL statements and Redis commands. */
export const CALL_COUNTER = path.join(__dirname, 'call-counter.cjs');

const WAIT_MS = 5_000;

/** What the API sent so far: statements to PostgreSQL (one round trip each) and commands to Redis. */
export interface CallCounts {
  postgres: number;
  redis: number;
}

/** The API's counts now: it writes them to `file` when signalled (call-counter.cjs); null if it does not in time. */
export async function readCallCounts(api: Service, file: string): Promise<CallCounts | null> {
  rmSync(file, { force: true });
  api.child.kill('SIGUSR2');
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as CallCounts;
    } catch {
      await sleep(5);
    }
  }
  return null;
}
