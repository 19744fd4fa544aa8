/** One server of a DATABASE_URL: its own single-host URL, and where it listens. */
export interface DatabaseHost {
  host: string;
  port: number;
  url: string;
}

/**
 * `read-write`: connect only to a server that accepts writes (the primary), as libpq's target_session_attrs does.
 * `any`: the first server that answers.
 */
export type TargetSessionAttrs = 'any' | 'read-write';

export interface DatabaseTarget {
  hosts: DatabaseHost[];
  targetSessionAttrs: TargetSessionAttrs;
}

const SHAPE = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]+)(.*)$/;
const HOST = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

/**
 * Reads a PostgreSQL URL with one host or several, comma-separated as libpq takes them
 * (`postgres://user:pw@10.0.0.1:5432,10.0.0.2:5432/verifactu?target_session_attrs=read-write`). node-postgres takes
 * one host only: each host gets a URL of its own with the same user, database and options. Throws on a malformed URL.
 */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  const shape = SHAPE.exec(url);
  if (!shape) throw new Error('must be a postgres:// or postgresql:// URL');
  const [, scheme, auth = '', hostList, rest] = shape;
  const parsed = new URL(`${scheme}${auth}placeholder${rest}`);
  const attrs = parsed.searchParams.get('target_session_attrs') ?? 'any';
  if (attrs !== 'any' && attrs !== 'read-write') throw new Error('target_session_attrs must be read-write or any');
  parsed.searchParams.delete('target_session_attrs');
  const hosts = hostList.split(',').map((entry) => {
    const host = HOST.exec(entry);
    if (!host) throw new Error(`host "${entry}" is not host or host:port`);
    const port = Number(host[2] ?? 5432);
    if (port < 1 || port > 65_535) throw new Error(`port ${port} is out of range`);
    const single = new URL(parsed.toString());
    single.host = `${host[1]}:${port}`;
    return { host: host[1].replace(/^\[(.*)\]$/, '$1'), port, url: single.toString() };
  });
  return { hosts, targetSessionAttrs: attrs };
}
