import { randomUUID } from 'node:crypto';
import { freePort } from '@vf/private-servers';

export interface NpmStartPorts {
  port: number;
  simPort: number;
  viesPort: number;
  adminPort: number;
  workerPort: number;
}

/**
 * The environment of an `npm start` run by a test: `npm start`'s own choices (keys, certificates, admin credentials,
 * log format) left to it, its local state in `varDir`, and every port its own, so that two runs of the suite at once
 * never share one (npm start's defaults are fixed).
 */
export async function npmStartEnv(databaseUrl: string, varDir: string): Promise<{ env: NodeJS.ProcessEnv; ports: NpmStartPorts }> {
  const ports = {
    port: await freePort(),
    simPort: await freePort(),
    viesPort: await freePort(),
    adminPort: await freePort(),
    workerPort: await freePort(),
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    VAR_DIR: varDir,
    PORT: String(ports.port),
    SIM_PORT: String(ports.simPort),
    SIM_VIES_PORT: String(ports.viesPort),
    ADMIN_PORT: String(ports.adminPort),
    WORKER_PORT: String(ports.workerPort),
    SIMULATOR_URL: `https://127.0.0.1:${ports.simPort}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP`,
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: `vfstart-${randomUUID()}`,
    // The machine's proxy settings are not the service's: the worker reaches the simulator directly.
    HTTPS_PROXY: '',
    https_proxy: '',
  };
  for (const name of [
    'LOG_FORMAT',
    'MASTER_KEY',
    'MASTER_KEY_FILE',
    'CERT_DIR',
    'ADMIN_USER',
    'ADMIN_PASSWORD',
    'PLATFORM_CERT_PATH',
    'PLATFORM_CERT_PASSWORD',
    'SIMULATOR_CA_PATH',
    'VIES_URL',
  ])
    delete env[name];
  return { env, ports };
}
