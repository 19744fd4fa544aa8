import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import { pollUntil } from './poll-until';
import { postgresIds } from './postgres-user';
import { postgresBinDir } from './private-postgres';

const run = promisify(execFile);
const DATABASE = 'verifactu';
// Creating a node runs initdb or pg_basebackup and the monitor's first health checks: slow on a loaded machine.
const FORMATION_WAIT_MS = 150_000;

interface Node {
  name: string;
  port: number;
  process: ChildProcess;
}

/**
 * A pg_auto_failover formation of a test's own on one machine, as its documentation builds one: a monitor, a primary
 * and a synchronous standby (`pg_autoctl create ... --run`), each on a free port with its data folder in a temporary
 * directory. pg_autoctl refuses to run as root: as root, the folder is handed to the `postgres` user and every
 * command runs as that user. `loseNode` kills a node's keeper and stops its PostgreSQL at once, as a lost machine.
 */
export class PrivateAutoFailover {
  private readonly nodes: Node[] = [];
  private monitorProcess: ChildProcess | undefined;

  private constructor(
    private readonly dir: string,
    private readonly monitorPort: number,
  ) {}

  static async start(): Promise<PrivateAutoFailover> {
    const dir = mkdtempSync(path.join(tmpdir(), 'vf-auto-failover-'));
    for (const sub of ['config', 'share', 'run']) mkdirSync(path.join(dir, sub), { mode: 0o700 });
    if (userInfo().uid === 0) for (const sub of ['', 'config', 'share', 'run']) chownSync(path.join(dir, sub), ...postgresIds());
    const formation = new PrivateAutoFailover(dir, await freePort());
    try {
      formation.monitorProcess = formation.autoctl('monitor', [
        ...['create', 'monitor', '--pgdata', path.join(dir, 'monitor'), '--pgport', String(formation.monitorPort)],
        ...['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--run'],
      ]);
      await pollUntil(() => formation.monitorAnswers(), 'the pg_auto_failover monitor', FORMATION_WAIT_MS, 500);
      await formation.addNode('node1', ['single']);
      await formation.addNode('node2', ['primary', 'secondary']);
    } catch (err) {
      await formation.destroy();
      throw new Error(`${(err as Error).message}\n${formation.logs()}`);
    }
    return formation;
  }

  /** The URL the service is given: every node, the read-write one chosen at each connection. */
  get url(): string {
    const hosts = this.nodes.map((node) => `127.0.0.1:${node.port}`).join(',');
    return `postgres://postgres@${hosts}/${DATABASE}?target_session_attrs=read-write`;
  }

  /** The monitor's view: each node's port, the state it reports and the one the monitor assigned it. */
  async states(): Promise<{ port: number; state: string; goal: string }[]> {
    const out = await this.psql(
      this.monitorPort,
      'pg_auto_failover',
      'SELECT nodeport, reportedstate, goalstate FROM pgautofailover.node ORDER BY nodeid',
    );
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [port, state, goal] = line.split('|');
        return { port: Number(port), state, goal };
      });
  }

  async primaryPort(): Promise<number> {
    // A lost node goes on being reported in its last state; the monitor's goal for it says it is no longer primary.
    const primary = (await this.states()).find((node) => ['primary', 'wait_primary'].includes(node.goal) && node.state === node.goal);
    if (!primary) throw new Error('the formation has no primary');
    return primary.port;
  }

  /** Kills the node's keeper (so nothing restarts it) and stops its PostgreSQL with `pg_ctl stop -m immediate`. */
  async loseNode(port: number): Promise<void> {
    const node = this.nodes.find((n) => n.port === port)!;
    for (const pid of keeperPids(node.process.pid!)) process.kill(pid, 'SIGKILL');
    await this.command('pg_ctl', ['-D', this.dataDir(node.name), '-m', 'immediate', '-w', '-t', '60', 'stop']);
  }

  /** Waits until another node than `lostPort` is the primary; returns its port. */
  async promoted(lostPort: number): Promise<number> {
    return pollUntil(
      async () => {
        const port = await this.primaryPort().catch(() => undefined);
        return port !== undefined && port !== lostPort && port;
      },
      'a standby promoted by the monitor',
      FORMATION_WAIT_MS,
      500,
    );
  }

  /** What each pg_autoctl printed, for a failure's message. */
  logs(): string {
    return ['monitor', ...this.nodes.map((n) => n.name)]
      .map((name) => `--- ${name}\n${readFileSync(path.join(this.dir, `${name}.log`), 'utf8').slice(-4000)}`)
      .join('\n');
  }

  async destroy(): Promise<void> {
    const groups = [this.monitorProcess, ...this.nodes.map((n) => n.process)].filter((p) => p?.pid) as ChildProcess[];
    for (const child of groups) for (const pid of keeperPids(child.pid!)) process.kill(pid, 'SIGKILL');
    for (const name of ['monitor', ...this.nodes.map((n) => n.name)])
      await this.command('pg_ctl', ['-D', this.dataDir(name), '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private dataDir(name: string): string {
    return path.join(this.dir, name);
  }

  private async addNode(name: string, ready: string[]): Promise<void> {
    const port = await freePort();
    const monitor = `postgres://autoctl_node@127.0.0.1:${this.monitorPort}/pg_auto_failover`;
    const child = this.autoctl(name, [
      ...['create', 'postgres', '--pgdata', this.dataDir(name), '--pgport', String(port), '--name', name],
      ...['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--monitor', monitor, '--dbname', DATABASE, '--run'],
    ]);
    this.nodes.push({ name, port, process: child });
    await pollUntil(
      async () => {
        const states = await this.states().catch(() => []);
        if (states.length === this.nodes.length && states.every((node, i) => node.state === ready[i] && node.goal === ready[i]))
          return true;
        // A standby's base backup waits for a checkpoint, spread over minutes unless one is asked for.
        if (this.nodes.length > 1) await this.psql(this.nodes[0].port, DATABASE, 'CHECKPOINT').catch(() => undefined);
        return false;
      },
      `${name} to join the formation (${ready.join(', ')})`,
      FORMATION_WAIT_MS,
      1_000,
    );
  }

  private autoctl(name: string, args: string[]): ChildProcess {
    const bin = postgresBinDir();
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      PG_CONFIG: path.join(bin, 'pg_config'),
      // pg_autoctl keeps its configuration and state under the XDG folders: the formation's own.
      XDG_CONFIG_HOME: path.join(this.dir, 'config'),
      XDG_DATA_HOME: path.join(this.dir, 'share'),
      XDG_RUNTIME_DIR: path.join(this.dir, 'run'),
    };
    const log = openSync(path.join(this.dir, `${name}.log`), 'a');
    const [file, argv] = userInfo().uid === 0 ? ['runuser', ['-u', 'postgres', '--', 'pg_autoctl', ...args]] : ['pg_autoctl', args];
    // A process group of its own, so that the keeper and its services can be told apart from other processes.
    return spawn(file, argv, { env, detached: true, stdio: ['ignore', log, log] });
  }

  private async command(name: string, args: string[]): Promise<void> {
    const file = path.join(postgresBinDir(), name);
    if (userInfo().uid === 0) await run('runuser', ['-u', 'postgres', '--', file, ...args]);
    else await run(file, args);
  }

  private async monitorAnswers(): Promise<boolean> {
    return this.states().then(
      () => true,
      () => false,
    );
  }

  private async psql(port: number, database: string, sql: string): Promise<string> {
    const args = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-AtXq', '-c', sql];
    const { stdout } = await run(path.join(postgresBinDir(), 'psql'), args, { env: { ...process.env, PGCONNECT_TIMEOUT: '5' } });
    return stdout;
  }
}

/** The pg_autoctl processes (and runuser) in the process group `group`: everything there but PostgreSQL itself. */
function keeperPids(group: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === group && name !== 'postgres' ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}
