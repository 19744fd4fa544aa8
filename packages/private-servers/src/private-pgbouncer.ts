import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { acceptsConnections } from './accepts-connections';
import { freePort } from './free-port';
import { pollUntil } from './poll-until';
import { postgresIds } from './postgres-user';

const PGBOUNCER = '/usr/sbin/pgbouncer';

/**
 * PgBouncer (Debian's `pgbouncer`) of a test's own in front of a PostgreSQL server, in transaction pooling: each
 * transaction borrows one of a few server connections, so a client that relied on anything outliving a transaction
 * (a named prepared statement, a session setting, a session advisory lock, LISTEN) would find it gone.
 */
export class PrivatePgBouncer {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly process: ChildProcess,
  ) {}

  static async start(upstream: { host: string; port: number }, opts: { serverConnections?: number } = {}): Promise<PrivatePgBouncer> {
    const dir = mkdtempSync(path.join(tmpdir(), 'vf-pgbouncer-'));
    const port = await freePort();
    writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
    writeFileSync(
      path.join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${upstream.host} port=${upstream.port} user=postgres`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${path.join(dir, 'userlist.txt')}`,
        'pool_mode = transaction',
        `default_pool_size = ${opts.serverConnections ?? 4}`,
        'max_client_conn = 500',
        `logfile = ${path.join(dir, 'pgbouncer.log')}`,
        `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
        '',
      ].join('\n'),
    );
    const asRoot = userInfo().uid === 0;
    const ids = asRoot ? postgresIds() : undefined;
    if (ids) chownSync(dir, ...ids);
    const child = spawn(PGBOUNCER, [path.join(dir, 'pgbouncer.ini')], {
      cwd: dir,
      stdio: 'ignore',
      ...(ids && { uid: ids[0], gid: ids[1] }),
    });
    const bouncer = new PrivatePgBouncer(port, dir, child);
    try {
      await pollUntil(async () => child.exitCode === null && (await acceptsConnections(port)), `pgbouncer on port ${port}`, 15_000);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${bouncer.log()}`);
    }
    return bouncer;
  }

  /** The URL of `database` on the upstream server, through the bouncer. */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  log(): string {
    try {
      return readFileSync(path.join(this.dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return '';
    }
  }

  async destroy(): Promise<void> {
    const child = this.process;
    if (child.exitCode === null && child.signalCode === null)
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
