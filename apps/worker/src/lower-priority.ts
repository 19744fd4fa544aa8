import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Gives the whole process the CPU niceness `nice`. On Linux niceness belongs to each thread: V8's and libuv's threads
 * (libuv's pool is where records are signed) already exist when the worker starts, so each one is set, by its thread
 * id; threads created later inherit it. Lowering one's own priority needs no privilege.
 */
export function lowerPriority(nice: number): void {
  let threads: string[] = [];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    // Not Linux: the priority is the process's.
  }
  setPriority(nice);
  for (const tid of threads) {
    try {
      setPriority(Number(tid), nice);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}
