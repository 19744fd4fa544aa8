import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, isPortFree } from './free-port';
import { pollUntil } from './poll-until';

const run = promisify(execFile);

/** Redis Cluster talks between nodes on the client port plus 10,000. */
const BUS_OFFSET = 10_000;

/** A free port whose cluster-bus port is free too, apart from the ports already `taken` (and their bus ports). */
async function clusterPort(taken: number[]): Promise<number> {
  const used = taken.flatMap((port) => [port, port + BUS_OFFSET]);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = await freePort();
    const bus = port + BUS_OFFSET;
    if (bus < 65_536 && !used.includes(port) && !used.includes(bus) && (await isPortFree(bus))) return port;
  }
  throw new Error('no free pair of client and cluster-bus ports found');
}

/**
 * A three-node Redis Cluster of a test's own (masters only, no persistence): `redis-server --cluster-enabled yes` on
 * free ports, joined by `redis-cli --cluster create`, as an operator would build a small one.
 */
export class PrivateRedisCluster {
  private constructor(
    readonly ports: number[],
    private readonly dir: string,
    private readonly nodes: ChildProcess[],
  ) {}

  static async start(size = 3): Promise<PrivateRedisCluster> {
    const dir = mkdtempSync(path.join(tmpdir(), 'vf-redis-cluster-'));
    const ports: number[] = [];
    for (let i = 0; i < size; i += 1) ports.push(await clusterPort(ports));
    const nodes = ports.map((port) =>
      spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
          ...['--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', '5000'],
        ],
        { cwd: dir, stdio: 'ignore' },
      ),
    );
    const cluster = new PrivateRedisCluster(ports, dir, nodes);
    try {
      for (const port of ports)
        await pollUntil(() => cluster.cli(port, 'PING').then((out) => out === 'PONG'), `redis-server on ${port}`, 15_000);
      const addresses = ports.map((port) => `127.0.0.1:${port}`);
      await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
      for (const port of ports)
        await pollUntil(
          () => cluster.cli(port, 'CLUSTER', 'INFO').then((out) => out.includes('cluster_state:ok')),
          `cluster state ok on ${port}`,
          30_000,
        );
    } catch (err) {
      await cluster.destroy();
      throw err;
    }
    return cluster;
  }

  /** REDIS_URL for REDIS_CLUSTER=true: every node as a seed. */
  get url(): string {
    return this.ports.map((port) => `redis://127.0.0.1:${port}`).join(',');
  }

  private async cli(port: number, ...args: string[]): Promise<string> {
    const { stdout } = await run('redis-cli', ['-p', String(port), ...args]);
    return stdout.trim();
  }

  async destroy(): Promise<void> {
    await Promise.all(
      this.nodes.map(
        (node) =>
          new Promise<void>((resolve) => {
            if (node.exitCode !== null || node.signalCode !== null) return resolve();
            node.once('exit', () => resolve());
            node.kill('SIGKILL');
          }),
      ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
