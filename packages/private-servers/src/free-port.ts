import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 10_000;
const ATTEMPTS = 100;

/** The first port of the range the kernel hands out for listen(0) and outgoing connections (Linux's default if unknown). */
function ephemeralFloor(): number {
  try {
    const floor = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(floor) ? floor : 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether nothing listens on `port` (on any address). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    // No host: every address, so a server already on 127.0.0.1 or on [::] makes the port unusable.
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port nothing listens on, for a server another process will start. It is chosen at random below the
 * kernel's ephemeral range, so no listen(0) elsewhere (supertest makes one per request) can take it in the seconds
 * before that server binds it, as a port the kernel had just handed out could be.
 */
export async function freePort(): Promise<number> {
  const floor = Math.max(ephemeralFloor(), LOWEST + 1_000);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const port = LOWEST + Math.floor(Math.random() * (floor - LOWEST));
    if (await isPortFree(port)) return port;
  }
  throw new Error(`no free TCP port found in ${ATTEMPTS} tries between ${LOWEST} and ${floor}`);
}
