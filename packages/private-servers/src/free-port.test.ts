import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { freePort } from './free-port';

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });

test('gives a port that can be listened on, outside the range the kernel hands to listen(0)', async () => {
  const [floor] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
  for (const port of ports) {
    expect(port).toBeLessThan(floor);
    const server = await listen(port);
    await new Promise((resolve) => server.close(resolve));
  }
});
