import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import { postgresIds } from './postgres-user';

const run = promisify(execFile);

/** The newest PostgreSQL's binaries of the Debian packages. */
export function postgresBinDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((v) => path.join(base, v, 'bin')).find((dir) => existsSync(path.join(dir, 'pg_ctl')));
  if (!found) throw new Error(`no PostgreSQL binaries under ${base}/*/bin`);
  return found;
}

/**
 * A PostgreSQL server of a test's own (initdb into a temporary folder, a free port, trust authentication on
 * 127.0.0.1), so the test can stop, restart and kill it without touching the shared server. PostgreSQL refuses to
 * run as root: as root, the folder is handed to the `postgres` user and every command runs as that user.
 */
export class PrivatePostgres {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly bin: string,
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(path.join(tmpdir(), 'vf-private-pg-'));
    if (userInfo().uid === 0) chownSync(dir, ...postgresIds());
    const server = new PrivatePostgres(await freePort(), dir, postgresBinDir());
    await server.command('initdb', ['-D', server.dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    await server.startServer();
    return server;
  }

  /** The URL of a database on this server (created on first use by the service's own migration). */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  private async command(name: string, args: string[]): Promise<void> {
    const file = path.join(this.bin, name);
    if (userInfo().uid === 0) await run('runuser', ['-u', 'postgres', '--', file, ...args]);
    else await run(file, args);
  }

  /** Starts the server and waits until it accepts connections. */
  async startServer(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    await this.command('pg_ctl', ['-D', this.dataDir, '-l', path.join(this.dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  }

  /** A fast shutdown: every session is terminated, as in an operator's restart. */
  async stopServer(): Promise<void> {
    await this.command('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stopServer().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
