import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { invoiceBody } from '@vf/api/testing';
import { obliterateWebhookQueue } from '../support/webhook-receiver';
import { listen, lossyProxy, type Listening } from '../support/service-listener';
import { WorkerTestEnv } from '../support/worker-test-env';

// The Python client (clients/python) against the real service: the API listening on a port, a worker and the
// authority simulator. Its tests (clients/python/tests/service) run with the machine's python3 (or $PYTHON).
const PYTHON_CLIENT = path.resolve(__dirname, '../../../clients/python');
const run = promisify(execFile);

let env: WorkerTestEnv;
let api: Listening;
let proxy: Listening & { keys: string[] };

beforeAll(async () => {
  env = await WorkerTestEnv.create({ env: { WEBHOOK_RETRY_DELAYS_MS: '200,300', WEBHOOK_SWEEP_INTERVAL_MS: '200' } });
  await env.startWorker();
  api = await listen(env.api);
  proxy = await lossyProxy(api.url, (req) => req.method === 'POST' && req.url === '/api/v1/invoices');
});
afterAll(async () => {
  await proxy?.close();
  await api?.close();
  await env?.close();
  if (env) await obliterateWebhookQueue(env.env.REDIS_URL, env.env.QUEUE_PREFIX);
});

test("the Python client's tests pass against the running service, a lost answer's retry reusing its key", async () => {
  const party = await env.party();
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const python = process.env.PYTHON ?? 'python3';
  const args = ['-m', 'unittest', '-v', 'tests.service.test_against_service'];
  const { stderr } = await run(python, args, {
    cwd: PYTHON_CLIENT,
    env: {
      ...process.env,
      PYTHONDONTWRITEBYTECODE: '1',
      VERIFACTU_URL: api.url,
      VERIFACTU_API_KEY: party.account.apiKey,
      VERIFACTU_LOSSY_URL: proxy.url,
      VERIFACTU_INVOICE: JSON.stringify(invoiceBody(taxpayer.id, party.systemId)),
    },
    timeout: 150_000,
  }).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`${python} -m unittest failed:\n${error.stderr ?? error.message}`);
  });

  // Every test ran (none skipped for want of the environment) and passed.
  expect(stderr).toMatch(/^Ran 5 tests in /m);
  expect(stderr.trimEnd()).toMatch(/\nOK$/);
  // The registration whose answer the proxy lost was sent twice with one Idempotency-Key (the Python test saw one
  // invoice in the list).
  expect(proxy.keys).toHaveLength(2);
  expect(proxy.keys[1]).toBe(proxy.keys[0]);
});
