import { PrivateRedis } from '@vf/private-servers';
import { waitUntil } from '@vf/core/testing';
import type { Party, WorkerTestEnv } from '../support/worker-test-env';

// A Redis of this test's own, flushed and restarted empty under a running worker. The reconcile interval is 1 s:
// waiting invoices must move again within a few intervals, without any process restarting.
const RECONCILE_INTERVAL_MS = 1000;
const RESUME_DEADLINE_MS = 30_000;

let redis: PrivateRedis;
let env: WorkerTestEnv;
let party: Party;
let taxpayerId: string;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  // The test environment reads REDIS_URL when it is loaded: load it only once the private server is up.
  process.env.REDIS_URL = redis.url;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded late on purpose (see above)
  const { WorkerTestEnv } = require('../support/worker-test-env') as typeof import('../support/worker-test-env');
  env = await WorkerTestEnv.create({ env: { RECONCILE_INTERVAL_MS: String(RECONCILE_INTERVAL_MS) } });
  party = await env.party();
  taxpayerId = (await env.taxpayer(party, { certificate: 'own' })).id;
  await env.startWorker();
});
afterAll(async () => {
  await env?.close();
  await redis?.destroy();
});

let previous: string | undefined;

/** Registers invoices whose jobs wait in a paused queue, so only Redis holds the promise to send them. */
async function waitingInvoices(count: number): Promise<string[]> {
  // The chain's job may outlive the previous test's answers (running, or asleep on the waiting time); it must end
  // first, or the new records would join it instead of waiting in the paused queue.
  if (previous) {
    const job = await env.jobId(previous);
    await waitUntil(async () => (await env.apiQueues.submission.getJobState(job)) === 'unknown', 'the chain job to end');
  }
  await env.apiQueues.submission.pause();
  const ids = await env.register(party, taxpayerId, count);
  expect((await env.states(ids)).map((s) => s.status)).toEqual(Array(count).fill('queued'));
  for (const id of ids) expect(await env.apiQueues.submission.getJobState(await env.jobId(id))).toBe('waiting');
  previous = ids[0];
  return ids;
}

test('after a FLUSHALL, waiting invoices are sent without any restart (the workers re-create the reconcile schedule)', async () => {
  const ids = await waitingInvoices(3);
  await redis.flushAll();
  // The flush took the jobs, the pause and the reconcile schedule with it.
  expect(await env.apiQueues.submission.getJobState(await env.jobId(ids[0]))).toBe('unknown');
  const states = await env.settled(ids, RESUME_DEADLINE_MS);
  expect(states.map((s) => s.status)).toEqual(['accepted', 'accepted', 'accepted']);
});

test('after Redis restarts empty, waiting invoices are sent without any restart', async () => {
  const ids = await waitingInvoices(2);
  await redis.stopServer();
  await redis.startServer();
  const states = await env.settled(ids, RESUME_DEADLINE_MS);
  expect(states.map((s) => s.status)).toEqual(['accepted', 'accepted']);
});
