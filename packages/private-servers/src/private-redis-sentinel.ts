import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import { pollUntil } from './poll-until';

const run = promisify(execFile);
const NAME = 'vf';
const SENTINELS = 3;

/**
 * Redis under Sentinel, of a test's own: a primary, one replica (`--replicaof`) and three sentinels (quorum 2) on free
 * ports, without persistence, the sentinels' files in a temporary folder. `losePrimary` kills the primary outright;
 * the sentinels then promote the replica after `down-after-milliseconds`.
 */
export class PrivateRedisSentinel {
  readonly name = NAME;

  private constructor(
    private readonly dir: string,
    readonly sentinelPorts: number[],
    private readonly servers: Map<number, ChildProcess>,
    private readonly sentinels: ChildProcess[],
  ) {}

  static async start(): Promise<PrivateRedisSentinel> {
    const dir = mkdtempSync(path.join(tmpdir(), 'vf-redis-sentinel-'));
    const [primary, replica] = [await freePort(), await freePort()];
    const sentinelPorts: number[] = [];
    for (let i = 0; i < SENTINELS; i += 1) sentinelPorts.push(await freePort());
    // Replication still writes a snapshot (the primary's for the replica, the replica's as received): each in the
    // formation's folder under a name of its own, never in the working directory.
    const base = (port: number) => [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--dbfilename',
      `dump-${port}.rdb`,
    ];
    const servers = new Map([
      [primary, spawn('redis-server', base(primary), { stdio: 'ignore' })],
      [replica, spawn('redis-server', [...base(replica), '--replicaof', '127.0.0.1', String(primary)], { stdio: 'ignore' })],
    ]);
    const sentinels = sentinelPorts.map((port) => {
      // Sentinel rewrites its file as it learns the formation: one writable file each.
      const file = path.join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `sentinel monitor ${NAME} 127.0.0.1 ${primary} 2`,
          `sentinel down-after-milliseconds ${NAME} 2000`,
          `sentinel failover-timeout ${NAME} 10000`,
          `sentinel parallel-syncs ${NAME} 1`,
          '',
        ].join('\n'),
      );
      return spawn('redis-sentinel', [file], { stdio: 'ignore' });
    });
    const formation = new PrivateRedisSentinel(dir, sentinelPorts, servers, sentinels);
    try {
      await pollUntil(() => formation.replicaInSync(replica), 'the Redis replica in sync with its primary', 30_000, 200);
      await pollUntil(() => formation.sentinelsAgree(primary), 'the sentinels to know the primary and each other', 30_000, 200);
    } catch (err) {
      await formation.destroy();
      throw err;
    }
    return formation;
  }

  /** REDIS_SENTINELS for the service. */
  get sentinelList(): string {
    return this.sentinelPorts.map((port) => `127.0.0.1:${port}`).join(',');
  }

  /** The primary's port, as the first sentinel names it. */
  async primaryPort(): Promise<number> {
    const out = await this.cli(this.sentinelPorts[0], 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', NAME);
    return Number(out.split('\n')[1]);
  }

  /** Kills the primary (SIGKILL), as a lost machine. */
  async losePrimary(): Promise<number> {
    const port = await this.primaryPort();
    const child = this.servers.get(port)!;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    return port;
  }

  /** Waits until every sentinel names another primary than `lostPort`, and that server says it is one. */
  async promoted(lostPort: number): Promise<number> {
    return pollUntil(
      async () => {
        const ports = await Promise.all(
          this.sentinelPorts.map((port) =>
            this.cli(port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', NAME).then((out) => Number(out.split('\n')[1])),
          ),
        );
        const [port] = ports;
        if (port === lostPort || ports.some((p) => p !== port)) return false;
        return (await this.cli(port, 'ROLE')).startsWith('master') && port;
      },
      'the sentinels to promote the replica',
      60_000,
      200,
    );
  }

  private async replicaInSync(replica: number): Promise<boolean> {
    return (await this.cli(replica, 'INFO', 'replication')).includes('master_link_status:up');
  }

  private async sentinelsAgree(primary: number): Promise<boolean> {
    const views = await Promise.all(this.sentinelPorts.map((port) => this.cli(port, 'SENTINEL', 'MASTER', NAME)));
    // Each sees the primary, its replica and the other sentinels.
    return views.every((view) => {
      const fields = view.split('\n');
      const value = (key: string) => fields[fields.indexOf(key) + 1];
      return value('port') === String(primary) && value('num-slaves') === '1' && value('num-other-sentinels') === String(SENTINELS - 1);
    });
  }

  private async cli(port: number, ...args: string[]): Promise<string> {
    const { stdout } = await run('redis-cli', ['-p', String(port), ...args]);
    return stdout.trim();
  }

  async destroy(): Promise<void> {
    await Promise.all(
      [...this.servers.values(), ...this.sentinels].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
