import { spawn, type ChildProcess } from 'node:child_process';
import IORedis from 'ioredis';
import { freePort } from './free-port';
import { pollUntil } from './poll-until';

/** A redis-server of a test's own on a free port, without persistence: stopping and starting it empties it. */
export class PrivateRedis {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const server = new PrivateRedis(await freePort());
    await server.startServer();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async startServer(): Promise<void> {
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await pollUntil(() => this.ping(), `redis-server on port ${this.port}`, 15_000);
  }

  async stopServer(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** A real FLUSHALL, as an operator (or an accident) would run it. */
  async flushAll(): Promise<void> {
    const client = new IORedis(this.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      await client.flushall();
    } finally {
      client.disconnect();
    }
  }

  private async ping(): Promise<boolean> {
    const client = new IORedis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }

  async destroy(): Promise<void> {
    await this.stopServer();
  }
}
