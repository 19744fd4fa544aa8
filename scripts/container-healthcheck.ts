/**
 * The image's HEALTHCHECK (`node scripts/dist/container-healthcheck.js`). A container runs one role, so the first of
 * the roles' ports that accepts a connection is its role's: the API's readiness on PORT, a worker's on WORKER_PORT,
 * the simulator's port SIM_PORT (mutual TLS: that it accepts connections is all a check can see). Exit 0 healthy.
 */
import { request } from 'node:http';
import { connect } from 'node:net';

const TIMEOUT_MS = 3_000;

type Verdict = 'healthy' | 'unhealthy' | 'nothing listens';

function readiness(port: number): Promise<Verdict> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/health/ready', timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? 'healthy' : 'unhealthy');
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'nothing listens' : 'unhealthy'));
    req.end();
  });
}

function accepts(port: number): Promise<Verdict> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: TIMEOUT_MS }, () => {
      socket.destroy();
      resolve('healthy');
    });
    socket.on('timeout', () => socket.destroy(new Error('timed out')));
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'nothing listens' : 'unhealthy'));
  });
}

const port = (name: string, fallback: number) => Number(process.env[name] || fallback);

async function main(): Promise<void> {
  const checks: [string, () => Promise<Verdict>][] = [
    ['api', () => readiness(port('PORT', 3000))],
    ['worker', () => readiness(port('WORKER_PORT', 9464))],
    ['sim', () => accepts(port('SIM_PORT', 8443))],
  ];
  for (const [role, check] of checks) {
    const verdict = await check();
    if (verdict === 'nothing listens') continue;
    console.log(`${role}: ${verdict}`);
    process.exit(verdict === 'healthy' ? 0 : 1);
  }
  console.log('no service listens');
  process.exit(1);
}

void main();
