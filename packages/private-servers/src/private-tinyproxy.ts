import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acceptsConnections } from './accepts-connections';
import { freePort } from './free-port';
import { pollUntil } from './poll-until';

const TINYPROXY = '/usr/bin/tinyproxy';

/**
 * An HTTP proxy of a test's own (Debian's `tinyproxy`), on loopback, asking for Basic credentials, logging each
 * connection and request line: the egress proxy a company puts between its servers and the internet. It can be
 * stopped and started again on the same port, as a proxy that goes away and comes back.
 */
export class PrivateTinyproxy {
  private process: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    readonly credentials: { user: string; password: string },
    private readonly dir: string,
  ) {}

  static async start(credentials: { user: string; password: string }): Promise<PrivateTinyproxy> {
    const proxy = new PrivateTinyproxy(await freePort(), credentials, mkdtempSync(path.join(tmpdir(), 'vf-tinyproxy-')));
    writeFileSync(
      path.join(proxy.dir, 'tinyproxy.conf'),
      [
        `Port ${proxy.port}`,
        'Listen 127.0.0.1',
        'Timeout 30',
        `LogFile "${path.join(proxy.dir, 'tinyproxy.log')}"`,
        // Connect: each client's connection and request line (CONNECT host:port), nothing of what the tunnel carries.
        'LogLevel Connect',
        'MaxClients 50',
        'Allow 127.0.0.1',
        `BasicAuth ${credentials.user} ${credentials.password}`,
        '',
      ].join('\n'),
    );
    await proxy.resume();
    return proxy;
  }

  /** The proxy's URL with its credentials, as HTTPS_PROXY takes it. */
  get url(): string {
    const { user, password } = this.credentials;
    return `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${this.port}`;
  }

  /** Starts the proxy again (on the same port) after stop(). */
  async resume(): Promise<void> {
    const child = spawn(TINYPROXY, ['-d', '-c', path.join(this.dir, 'tinyproxy.conf')], { cwd: this.dir, stdio: 'ignore' });
    this.process = child;
    try {
      await pollUntil(
        async () => child.exitCode === null && (await acceptsConnections(this.port)),
        `tinyproxy on port ${this.port}`,
        15_000,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${this.log()}`);
    }
  }

  log(): string {
    try {
      return readFileSync(path.join(this.dir, 'tinyproxy.log'), 'utf8');
    } catch {
      return '';
    }
  }

  /** Stops the proxy: connections to its port are refused until resume(). */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
