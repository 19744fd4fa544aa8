import { Client } from 'pg';
import { parseDatabaseUrl, type DatabaseHost, type TargetSessionAttrs } from '@vf/config';

/** How long a probe waits for one server: a host that does not answer must not hold up the others for long. */
const PROBE_TIMEOUT_MS = 3_000;

/** SQLSTATE 08001 (sqlclient_unable_to_establish_sqlconnection): classed as "database unavailable" by the callers. */
export class NoServerAvailableError extends Error {
  readonly code = '08001';
}

async function accepts(host: DatabaseHost, attrs: TargetSessionAttrs): Promise<DatabaseHost> {
  const client = new Client({ connectionString: host.url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    if (attrs === 'any') return host;
    const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
    if (rows[0].transaction_read_only !== 'off') throw new Error(`${host.host}:${host.port} is read-only (a standby)`);
    return host;
  } finally {
    // Not awaited: on a connection that failed, pg's end() can wait for an 'end' event that already went by, and
    // the probe, with every connection the pool opens after it, would wait forever.
    client.end().catch(() => undefined);
  }
}

/**
 * Which of a DATABASE_URL's hosts to connect to, as libpq chooses with target_session_attrs: the one that accepts
 * writes (`read-write`) or the first that answers (`any`). The choice is kept until a connection to it fails or finds
 * it read-only (`forget`); the next connection then asks every host again, so a promoted standby is followed without
 * a restart. Probes run one at a time whoever asks.
 */
export class PrimaryHost {
  private known: DatabaseHost | undefined;
  private probing: Promise<DatabaseHost> | undefined;

  constructor(
    private readonly hosts: DatabaseHost[],
    readonly targetSessionAttrs: TargetSessionAttrs,
  ) {}

  static fromUrl(url: string): PrimaryHost {
    const { hosts, targetSessionAttrs } = parseDatabaseUrl(url);
    return new PrimaryHost(hosts, targetSessionAttrs);
  }

  /** True when there is a choice to make: several hosts, or one that must accept writes. */
  get choosing(): boolean {
    return this.hosts.length > 1 || this.targetSessionAttrs === 'read-write';
  }

  async find(): Promise<DatabaseHost> {
    if (this.known) return this.known;
    this.probing ??= this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** Drops the choice when it was `host`: a connection to it failed or found it read-only. */
  forget(host: { host: string; port: number }): void {
    if (this.known?.host === host.host && this.known.port === host.port) this.known = undefined;
  }

  private async probe(): Promise<DatabaseHost> {
    const failures: unknown[] = [];
    for (const host of this.hosts) {
      try {
        this.known = await accepts(host, this.targetSessionAttrs);
        return this.known;
      } catch (err) {
        failures.push(err);
      }
    }
    const wanted = this.targetSessionAttrs === 'read-write' ? 'a read-write PostgreSQL server' : 'a PostgreSQL server';
    throw new NoServerAvailableError(`no host of DATABASE_URL is ${wanted} now`, { cause: new AggregateError(failures) });
  }
}

/**
 * The single-host URL of the server DATABASE_URL's target_session_attrs chooses, for a session of its own (the
 * migrations). Asked on each server's maintenance database, since the service's may not exist yet.
 */
export async function chosenServerUrl(url: string): Promise<string> {
  const { hosts, targetSessionAttrs } = parseDatabaseUrl(url);
  if (hosts.length === 1 && targetSessionAttrs === 'any') return url;
  const maintenance = hosts.map((host) => {
    const admin = new URL(host.url);
    admin.pathname = '/postgres';
    return { ...host, url: admin.toString() };
  });
  const chosen = await new PrimaryHost(maintenance, targetSessionAttrs).find();
  return hosts.find((host) => host.host === chosen.host && host.port === chosen.port)!.url;
}
