import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createSystem, invoiceBody, registerAccount } from '@vf/api/testing';
import { TEST_CERT_FILES, DEFAULT_TAXPAYER_NIFS } from '@vf/certificates/testing';
import {
  ended,
  freePort,
  pollWhileRunning,
  PrivatePostgres,
  PrivateRedis,
  REPOSITORY_ROOT,
  type ServiceProcess,
} from '@vf/private-servers';
import { buildah, Container } from './buildah';
import { testBaseImage } from './test-base-image';

// `npm run test:image`: the Dockerfile built with buildah (no container engine needed), and the image run as operators
// run it: a one-shot migration, then the simulator, the API and a worker, each in a container of its own, against a
// PostgreSQL and a Redis of the test's own. The containers share the host's network (buildah run --network host), as
// if every published port were the host's. The base image is Debian made by debootstrap with this machine's Node.js
// (BASE_IMAGE); the build gets this machine's CA bundle as its extra_ca secret, for a proxy that re-signs TLS.
const IMAGE = 'localhost/verifactu-service:image-test';
const CA_BUNDLE = process.env.EXTRA_CA_BUNDLE ?? '/etc/ssl/certs/ca-certificates.crt';
const SERVICE_UID = 10001;

let pg: PrivatePostgres;
let redis: PrivateRedis;
let certDir: string;
let env: Record<string, string>;
let apiUrl: string;
let workerUrl: string;
const containers: Container[] = [];
const running: ServiceProcess[] = [];

async function container(role: string): Promise<Container> {
  const c = await Container.from(IMAGE, role);
  containers.push(c);
  return c;
}

function start(c: Container, role: string): ServiceProcess {
  const service = c.start(['/app/docker/entrypoint.sh', role], { env, volumes: { [certDir]: '/app/var/sim-certs' } });
  running.push(service);
  return service;
}

beforeAll(async () => {
  const base = await testBaseImage();
  const secret = existsSync(CA_BUNDLE) ? ['--secret', `id=extra_ca,src=${CA_BUNDLE}`] : [];
  await buildah(
    [
      'bud',
      '--isolation',
      'chroot',
      '--format',
      'docker',
      '--layers',
      '--build-arg',
      `BASE_IMAGE=${base}`,
      ...secret,
      '-t',
      IMAGE,
      REPOSITORY_ROOT,
    ],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  [pg, redis] = await Promise.all([PrivatePostgres.start(), PrivateRedis.start()]);
  // Written by the simulator's container, which runs as the image's user.
  certDir = mkdtempSync(path.join(tmpdir(), 'vf-image-certs-'));
  chownSync(certDir, SERVICE_UID, SERVICE_UID);
  const [port, workerPort, simPort, viesPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  apiUrl = `http://127.0.0.1:${port}`;
  workerUrl = `http://127.0.0.1:${workerPort}`;
  env = {
    MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    DATABASE_URL: pg.url('verifactu'),
    REDIS_URL: redis.url,
    PORT: String(port),
    WORKER_PORT: String(workerPort),
    SIM_PORT: String(simPort),
    SIM_VIES_PORT: String(viesPort),
    VIES_URL: `http://127.0.0.1:${viesPort}/taxation_customs/vies/rest-api`,
    SIM_CERT_DIR: '/app/var/sim-certs',
    AUTHORITY_MODE: 'simulator',
    SIMULATOR_URL: `https://127.0.0.1:${simPort}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP`,
    SIMULATOR_CA_PATH: '/app/var/sim-certs/ca.pem',
    SIM_WAIT_SECONDS: '1',
  };
});

afterAll(async () => {
  for (const service of running) if (service.child.exitCode === null) service.child.kill('SIGTERM');
  await Promise.all(running.map(ended));
  await Promise.all(containers.map((c) => c.remove()));
  await Promise.all([pg?.destroy(), redis?.destroy()]);
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

test('the image runs as a non-root user, checks its own health, and takes the role from its command', async () => {
  const image = JSON.parse(await buildah(['inspect', '--type', 'image', IMAGE])).Docker.config;
  expect(image).toMatchObject({
    User: `${SERVICE_UID}:${SERVICE_UID}`,
    Entrypoint: ['/app/docker/entrypoint.sh'],
    Cmd: ['api'],
    Healthcheck: { Test: ['CMD', 'node', '/app/scripts/dist/container-healthcheck.js'] },
  });
  // Production dependencies and compiled code only: no loader, no compiler of the build, no sources.
  const probe = await container('contents');
  const absent = ['node_modules/tsx', 'node_modules/esbuild', 'node_modules/typescript-native', 'node_modules/@swc/core', 'apps/api/src'];
  const listing = await probe.exec([
    'sh',
    '-c',
    `for f in ${absent.join(' ')} apps/api/dist/main.js; do [ -e "$f" ] && echo "$f"; done; true`,
  ]);
  expect(listing.output.trim().split('\n')).toEqual(['apps/api/dist/main.js']);
});

test('an invoice registered through the containerised API is accepted by the containerised worker and simulator', async () => {
  const migrate = start(await container('migrate'), 'migrate');
  expect({ ...(await ended(migrate)), output: migrate.output.join('') }).toMatchObject({ code: 0 });

  const sim = start(await container('sim'), 'sim');
  await pollWhileRunning(
    sim,
    async () => existsSync(path.join(certDir, TEST_CERT_FILES.passwords)),
    'the simulator to write its certificates',
    120_000,
    250,
  );
  const apiContainer = await container('api');
  const api = start(apiContainer, 'api');
  const worker = start(await container('worker'), 'worker');
  await pollWhileRunning(api, async () => (await request(apiUrl).get('/health/ready')).status === 200, 'the API to be ready', 120_000, 500);
  await pollWhileRunning(
    worker,
    async () => (await request(workerUrl).get('/health/ready')).status === 200,
    'the worker to be ready',
    120_000,
    500,
  );
  // The image's HEALTHCHECK, run in the API's container, finds the API ready.
  const health = await apiContainer.exec(['node', '/app/scripts/dist/container-healthcheck.js'], { env });
  expect(health).toEqual({ code: 0, output: 'api: healthy\n' });
  // Files the compiled code reads at run time, found from dist/: the dashboard's assets and Swagger UI's (the
  // simulator's schema check below reads the AEAT schemas and starts the XSD thread the same way).
  const login = await request(apiUrl).get('/login').expect(200);
  await request(apiUrl)
    .get(/\/assets\/dashboard\.css\?v=[0-9a-f]+/.exec(login.text)![0])
    .expect(200);
  await request(apiUrl).get('/docs/assets/swagger-ui-bundle.js').expect(200);

  const account = await registerAccount(apiUrl);
  const systemId = await createSystem(apiUrl, account);
  // A taxpayer certificate the simulator's CA issued, as a user of the offline stack takes it from the simulator.
  const nif = DEFAULT_TAXPAYER_NIFS[0];
  const passwords = JSON.parse(readFileSync(path.join(certDir, TEST_CERT_FILES.passwords), 'utf8')) as Record<string, string>;
  const taxpayer = await request(apiUrl)
    .post('/api/v1/taxpayers')
    .set(account.auth)
    .send({
      nif,
      name: 'CONTRIBUYENTE DE PRUEBAS',
      certificate_p12_base64: readFileSync(path.join(certDir, TEST_CERT_FILES.taxpayer(nif))).toString('base64'),
      certificate_password: passwords[TEST_CERT_FILES.taxpayer(nif)],
    })
    .expect(201);
  const invoice = await request(apiUrl)
    .post('/api/v1/invoices')
    .set(account.auth)
    .send(invoiceBody(taxpayer.body.data.id, systemId))
    .expect(201);

  const accepted = await pollWhileRunning(
    worker,
    async () => {
      const res = await request(apiUrl).get(`/api/v1/invoices/${invoice.body.data.id}`).set(account.auth).expect(200);
      return res.body.data.authority_status === 'accepted' && res.body.data;
    },
    'the invoice to be accepted',
    120_000,
    500,
  );
  expect(accepted).toMatchObject({ authority_status: 'accepted' });
  expect(sim.output.join('')).toContain('SIMULATOR');
});
