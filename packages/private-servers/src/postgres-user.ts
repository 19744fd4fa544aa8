import { readFileSync } from 'node:fs';

/**
 * The uid and gid of the `postgres` user. PostgreSQL and PgBouncer refuse to run as root: run as root, a test hands
 * them their folder and runs them as this user.
 */
export function postgresIds(): [number, number] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, but there is no postgres user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}
