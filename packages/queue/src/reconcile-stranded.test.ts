import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { sql } from 'drizzle-orm';
import IORedis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { chainJobId, createQueues, reconcileStranded, wakeChainSender, type Queues } from '.';

let t: TestDatabase;
let queues: Queues;
const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const prefix = `vftest-${randomUUID()}`;

// Minimal rows so invoices exist in the states the reconciler looks at.
async function seedInvoice(status: string, nextAttemptAt: Date | null = null): Promise<{ invoiceId: string; chainId: string }> {
  const r = await t.db.execute(sql`
    WITH a AS (INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
               VALUES ('n', ${randomUUID() + '@x.es'}, 'h', ${randomUUID()}, 'vfk_', 'free') RETURNING id),
         tp AS (INSERT INTO taxpayers (account_id, nif, name) SELECT id, '89890001K', 'T' FROM a RETURNING id, account_id),
         s AS (INSERT INTO computer_systems (account_id, vendor_name, vendor_nif, name, version, installation_number, system_code)
               SELECT id, 'V', 'B85905495', 'S', '1', '1', 'S1' FROM a RETURNING id),
         c AS (INSERT INTO chains (taxpayer_id, nif, is_production) SELECT id, left(md5(id::text), 9), false FROM tp RETURNING id),
         g AS (SELECT gen_random_uuid() AS id)
    INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq, invoice_number,
      invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name, system_snapshot_id, is_production,
      generated_at_literal, generated_at, hash, authority_status, next_attempt_at)
    SELECT g.id, g.id, g.id, c.id, tp.account_id, tp.id, s.id, 1, 'N-1', '2025-01-01', 'F2', 'd', 1, 0, '89890001K', 'T', gen_random_uuid(), false,
      '2025-01-01T10:00:00+01:00', now(), repeat('A', 64), ${status}, ${nextAttemptAt?.toISOString() ?? null}::timestamptz
    FROM tp, s, c, g RETURNING id, chain_id`);
  const row = r.rows[0] as { id: string; chain_id: string };
  return { invoiceId: row.id, chainId: row.chain_id };
}

beforeAll(async () => {
  t = await createTestDatabase();
  queues = createQueues(redis, prefix);
});
afterAll(async () => {
  await queues.submission.obliterate({ force: true });
  await queues.close();
  await redis.quit();
  await t.destroy();
});

test('a chain with records still to send whose job vanished from Redis gets it back; chains with nothing to send get none', async () => {
  const stranded = await seedInvoice('queued');
  const inFlight = await seedInvoice('sent');
  const live = await seedInvoice('queued');
  const done = await seedInvoice('accepted');
  // An error with a next attempt is still the workers' to send; one without waits for the user, with no job.
  const retrying = await seedInvoice('error', new Date());
  const waitingForUser = await seedInvoice('error');
  await wakeChainSender(queues, live.chainId);

  expect(await reconcileStranded(t.db, queues.submission)).toBe(3);

  for (const inv of [stranded, inFlight, live, retrying]) {
    const job = await queues.submission.getJob(chainJobId(inv.chainId));
    expect(job?.data).toEqual({ chainId: inv.chainId });
  }
  for (const inv of [done, waitingForUser]) expect(await queues.submission.getJob(chainJobId(inv.chainId))).toBeUndefined();
  // A second pass finds nothing to do: a chain has one job at most.
  expect(await reconcileStranded(t.db, queues.submission)).toBe(0);
});

test("a chain's job that failed while its records still wait is replaced", async () => {
  // Start from a clean slate so only this chain is in play.
  await queues.submission.obliterate({ force: true });
  await t.db.execute(sql`UPDATE invoices SET authority_status = 'accepted'`);
  const inv = await seedInvoice('queued');
  await wakeChainSender(queues, inv.chainId);
  const connection = redis.duplicate();
  const worker = new Worker(
    queues.submission.name,
    async () => {
      throw new Error('stalled once too often');
    },
    { connection, prefix },
  );
  await new Promise<void>((resolve) => worker.on('failed', (job) => job?.id === chainJobId(inv.chainId) && resolve()));
  await worker.close();
  await connection.quit();
  expect(await (await queues.submission.getJob(chainJobId(inv.chainId)))?.getState()).toBe('failed');

  expect(await reconcileStranded(t.db, queues.submission)).toBe(1);
  expect(await (await queues.submission.getJob(chainJobId(inv.chainId)))?.getState()).toBe('waiting');
});
