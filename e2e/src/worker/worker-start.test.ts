import { sql } from 'drizzle-orm';
import { waitUntil } from '@vf/core/testing';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

let env: WorkerTestEnv;
let party: Party;

beforeAll(async () => {
  env = await WorkerTestEnv.create();
  party = await env.party();
});
afterAll(async () => {
  await env?.close();
});

async function dropJob(invoiceId: string): Promise<void> {
  const jobId = await env.jobId(invoiceId);
  // The chain's sender is woken after the answer is sent: a removal before that wake-up would be undone by it.
  await waitUntil(() => env.apiQueues.submission.getJob(jobId), "the chain's job");
  await env.apiQueues.submission.remove(jobId);
  expect(await env.apiQueues.submission.getJob(jobId)).toBeUndefined();
}

test('invoices whose job vanished from Redis are sent anyway: reconciled at start-up and by the periodic scheduler', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const [beforeStart] = await env.register(party, taxpayer.id, 1);
  await dropJob(beforeStart);
  await env.startWorker();
  expect((await env.settled([beforeStart]))[0].status).toBe('accepted');

  // While the worker runs: once the chain's job has ended (it may outlive the answer by a moment, and an active
  // job cannot be removed), pause consumption so the next job can be removed before anyone takes it.
  const chainJob = await env.jobId(beforeStart);
  await waitUntil(async () => (await env.apiQueues.submission.getJob(chainJob)) === undefined, 'the chain job to end');
  await env.apiQueues.submission.pause();
  const [whileRunning] = await env.register(party, taxpayer.id, 1);
  await dropJob(whileRunning);
  await env.apiQueues.submission.resume();
  expect((await env.settled([whileRunning]))[0].status).toBe('accepted');
  expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(2);
});

test('a record whose rebuilt huella is not the stored one ends in error and is never sent; the chain before it goes, the records after it wait', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  await env.apiQueues.submission.pause();
  const [first, tampered, after] = await env.register(party, taxpayer.id, 3);
  // Someone altered the total in the database after the huella was computed.
  await env.db.db.execute(sql`UPDATE invoices SET total_amount = 999.99 WHERE id = ${tampered}`);
  await env.apiQueues.submission.resume();

  const [a, b, c] = await env.settled([first, tampered, after]);
  expect(a.status).toBe('accepted');
  expect(b).toMatchObject({ status: 'error', sendAttempts: 0, nextAttemptAt: null });
  expect(b.lastError).toMatch(/hashes to [0-9A-F]{64}, not to the stored huella [0-9A-F]{64}; it was not sent/);
  // Chained to a record the authority never got: it must not overtake it.
  expect(c).toMatchObject({
    status: 'error',
    sendAttempts: 0,
    nextAttemptAt: null,
    lastError: `waiting for the earlier record ${tampered}, which needs attention`,
  });
  expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(1);
});
