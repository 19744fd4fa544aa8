import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_ENTRY_POINTS, SERVICE_NODE_FLAGS, type ServiceRole } from '@vf/config';

export const ROOT = path.resolve(__dirname, '../..');
const STOP_GRACE_MS = 10_000;

/** A service process (simulator, API, worker) whose output goes to a log file, not through the harness. */
export interface Service {
  name: string;
  pid: number;
  child: ChildProcess;
  logFile: string;
  exited: Promise<void>;
  /** The end of its log, to explain a failure. */
  tail(chars?: number): string;
}

/**
 * Every child process of the run, so that all of them are stopped at the end, on an error and on Ctrl-C.
 * Children are Node itself running the compiled entry points with the services' flags (what `npm start` runs), so
 * the pid is the service's own: its RSS and CPU are read from /proc/<pid>, and signals reach it directly.
 */
export class Processes {
  private readonly live = new Set<ChildProcess>();

  track(child: ChildProcess): void {
    this.live.add(child);
    child.once('exit', () => this.live.delete(child));
  }

  /**
   * Starts the compiled `role` (`npm run build` first); stdout and stderr are appended to `logFile`. `nodeArgs` go to
   * Node itself (e.g. --cpu-prof).
   */
  spawnService(name: string, role: ServiceRole, env: NodeJS.ProcessEnv, logFile: string, nodeArgs: string[] = []): Service {
    const fd = openSync(logFile, 'a');
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS[role], ...nodeArgs, path.join(ROOT, SERVICE_ENTRY_POINTS[role])], {
      cwd: ROOT,
      env,
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    if (child.pid === undefined) throw new Error(`could not start ${name}`);
    this.track(child);
    const exited = new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    const tail = (chars = 3000) => {
      try {
        return readFileSync(logFile, 'utf8').slice(-chars);
      } catch {
        return '';
      }
    };
    return { name, pid: child.pid, child, logFile, exited, tail };
  }

  /** Runs a compiled script to its end (migrations, certificates), its output inherited; rejects on a non-zero exit. */
  runToEnd(name: string, script: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
    const child = spawn(process.execPath, [path.join(ROOT, script), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.track(child);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${name} exited with ${signal ?? code}`))));
    });
  }

  /** SIGTERM (the services finish what they hold and close their pools), then SIGKILL after a grace period. */
  async stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.live].map((child) => this.stop(child)));
  }
}
