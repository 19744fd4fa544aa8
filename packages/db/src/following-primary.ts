import type { Client } from 'pg';
import { NoServerAvailableError, type PrimaryHost } from './primary-host';

type ConnectCallback = (err: Error | null, client?: Client) => void;

/**
 * The pool's client class for a DATABASE_URL with a choice of hosts: each new connection goes to the host `primary`
 * chose. A connection that cannot be opened, or that finds its server read-only (a former primary back as a standby),
 * makes `primary` ask every host again, so the pool follows a failover without a restart. Connections already open
 * to a server that went away fail their next query and are discarded by the pool.
 */
export function followingPrimary(Base: typeof Client, primary: PrimaryHost): typeof Client {
  return class FollowingPrimaryClient extends Base {
    override connect: Client['connect'] = ((callback?: ConnectCallback) => {
      const connected = this.connectToPrimary();
      if (!callback) return connected;
      connected.then(
        () => callback(null, this),
        (err: Error) => callback(err),
      );
      return undefined;
    }) as Client['connect'];

    private async connectToPrimary(): Promise<Client> {
      const chosen = await primary.find();
      this.host = chosen.host;
      this.port = chosen.port;
      try {
        await super.connect();
      } catch (err) {
        primary.forget(chosen);
        throw err;
      }
      if (primary.targetSessionAttrs === 'read-write') {
        const { rows } = await this.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
        if (rows[0].transaction_read_only !== 'off') {
          primary.forget(chosen);
          // Not awaited, as in the probe: end() can wait for an 'end' event that never comes.
          this.end().catch(() => undefined);
          throw new NoServerAvailableError(`${chosen.host}:${chosen.port} is no longer the read-write server`);
        }
      }
      return this;
    }
  };
}
