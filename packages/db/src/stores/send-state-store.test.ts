import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../testing';
import {
  FULL_BATCH,
  acquireSendLease,
  continueSendLease,
  getSendState,
  lockOwnedSendState,
  outageSummary,
  recordAnswerTiming,
  recordFailureTiming,
  recordSendStart,
  releaseSendLease,
  renewSendLease,
} from './send-state-store';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

async function seedTaxpayer(queuedInvoices = 0): Promise<string> {
  const r = await t.db.execute(sql`
    WITH a AS (INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
               VALUES ('n', ${randomUUID() + '@x.es'}, 'h', ${randomUUID()}, 'vfk_', 'free') RETURNING id),
         s AS (INSERT INTO computer_systems (account_id, vendor_name, vendor_nif, name, version, installation_number, system_code)
               SELECT id, 'V', 'B85905495', 'S', '1', '1', 'S1' FROM a RETURNING id)
    INSERT INTO taxpayers (account_id, nif, name) SELECT id, '89890001K', 'T' FROM a RETURNING id`);
  const taxpayerId = (r.rows[0] as { id: string }).id;
  if (queuedInvoices > 0) {
    await seedMore(taxpayerId, queuedInvoices);
  }
  return taxpayerId;
}

const TTL = 30_000;

test('only one of several concurrent senders gets the lease; the others learn until when it is held', async () => {
  const taxpayerId = await seedTaxpayer();
  const owners = Array.from({ length: 8 }, () => randomUUID());
  const attempts = await Promise.all(owners.map((o) => acquireSendLease(t.db, taxpayerId, o, TTL)));
  const winners = attempts.filter((a) => a.acquired);
  expect(winners).toHaveLength(1);
  const state = await getSendState(t.db, taxpayerId);
  // A fresh taxpayer may send at once, so the lease expiry is the earliest next chance.
  for (const a of attempts.filter((x) => !x.acquired)) {
    expect(a).toEqual({ acquired: false, reason: 'leased', retryAt: state!.leaseUntil });
  }
});

test('an expired lease is taken over, and the previous holder can no longer renew it or write under it', async () => {
  const taxpayerId = await seedTaxpayer();
  expect((await acquireSendLease(t.db, taxpayerId, 'dead-worker', TTL)).acquired).toBe(true);
  await t.db.execute(sql`UPDATE send_states SET lease_until = now() - interval '1 second' WHERE taxpayer_id = ${taxpayerId}`);

  expect((await acquireSendLease(t.db, taxpayerId, 'new-worker', TTL)).acquired).toBe(true);
  expect(await renewSendLease(t.db, taxpayerId, 'dead-worker', TTL)).toBe(false);
  expect(await t.db.transaction((tx) => lockOwnedSendState(tx, taxpayerId, 'dead-worker'))).toBeUndefined();
  expect(await t.db.transaction((tx) => lockOwnedSendState(tx, taxpayerId, 'new-worker'))).toMatchObject({ leaseOwner: 'new-worker' });
  // Releasing with a stale token does not free the new holder's lease.
  await releaseSendLease(t.db, taxpayerId, 'dead-worker');
  expect((await getSendState(t.db, taxpayerId))?.leaseOwner).toBe('new-worker');
});

test('after an answer the next send waits TiempoEsperaEnvio, unless a full message is waiting', async () => {
  const taxpayerId = await seedTaxpayer(FULL_BATCH - 1);
  expect((await acquireSendLease(t.db, taxpayerId, 'a', TTL)).acquired).toBe(true);
  await t.db.transaction(async (tx) => {
    await recordSendStart(tx, taxpayerId, 60_000);
    await recordAnswerTiming(tx, taxpayerId, 45);
  });
  expect(await continueSendLease(t.db, taxpayerId, 'a', TTL)).toBe(false);
  await releaseSendLease(t.db, taxpayerId, 'a');

  const state = await getSendState(t.db, taxpayerId);
  expect(state?.waitSeconds).toBe(45);
  expect(state!.nextSendAt.getTime() - Date.now()).toBeGreaterThan(40_000);
  expect(await acquireSendLease(t.db, taxpayerId, 'b', TTL)).toEqual({ acquired: false, reason: 'flow_control', retryAt: state!.nextSendAt });

  // One more record makes 1,000 waiting: the send may go now.
  await seedMore(taxpayerId, 1);
  expect((await acquireSendLease(t.db, taxpayerId, 'b', TTL)).acquired).toBe(true);
  expect(await continueSendLease(t.db, taxpayerId, 'b', TTL)).toBe(true);
});

test('a failure backoff holds even when a full message is waiting (no retry storm on a large backlog)', async () => {
  const taxpayerId = await seedTaxpayer(FULL_BATCH + 5);
  expect((await acquireSendLease(t.db, taxpayerId, 'a', TTL)).acquired).toBe(true);
  const retryAt = new Date(Date.now() + 3_600_000);
  await t.db.transaction((tx) => recordFailureTiming(tx, taxpayerId, retryAt, new Date()));
  await releaseSendLease(t.db, taxpayerId, 'a');

  expect(await acquireSendLease(t.db, taxpayerId, 'b', TTL)).toEqual({ acquired: false, reason: 'flow_control', retryAt });
  expect((await getSendState(t.db, taxpayerId))?.consecutiveFailures).toBe(1);
});

test('a send that starts pushes the next allowed time past its possible answer plus the waiting time, so a dead sender still counts', async () => {
  const taxpayerId = await seedTaxpayer(1);
  expect((await acquireSendLease(t.db, taxpayerId, 'a', TTL)).acquired).toBe(true);
  await t.db.transaction((tx) => recordSendStart(tx, taxpayerId, 10_000));
  // Meanwhile, others learn they need not look again before the send's answer deadline plus the waiting time.
  const meanwhile = await acquireSendLease(t.db, taxpayerId, 'c', TTL);
  expect(meanwhile).toMatchObject({ acquired: false, reason: 'leased', retryAt: (await getSendState(t.db, taxpayerId))!.nextSendAt });
  // The sender dies: its lease expires, yet the next send still waits the 10 s timeout plus the default 60 s.
  await t.db.execute(sql`UPDATE send_states SET lease_until = now() - interval '1 second' WHERE taxpayer_id = ${taxpayerId}`);
  const next = await acquireSendLease(t.db, taxpayerId, 'b', TTL);
  expect(next).toMatchObject({ acquired: false, reason: 'flow_control' });
  expect((next as { retryAt: Date }).retryAt.getTime() - Date.now()).toBeGreaterThan(65_000);
});

/** Appends `count` queued records to the end of the taxpayer's chain (created on first use). */
async function seedMore(taxpayerId: string, count: number): Promise<void> {
  await t.db.execute(sql`
    INSERT INTO chains (taxpayer_id, nif, is_production) VALUES (${taxpayerId}, left(md5(${taxpayerId}), 9), false) ON CONFLICT DO NOTHING`);
  await t.db.execute(sql`
    WITH g AS (SELECT gen_random_uuid() AS id, n FROM generate_series(1, ${count}) n)
    INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq, invoice_number,
      invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name, system_snapshot, is_production,
      generated_at_literal, generated_at, hash, qr_url, authority_status)
    SELECT g.id, g.id, g.id, c.id, tp.account_id, tp.id, cs.id, m.n + g.n, 'M-' || (m.n + g.n), '2025-01-01', 'F2', 'd', 1, 0, '89890001K', 'T',
      '{}'::jsonb, false, '2025-01-01T10:00:00+01:00', now(), repeat('A', 64), 'https://x', 'queued'
    FROM taxpayers tp JOIN computer_systems cs ON cs.account_id = tp.account_id
      JOIN chains c ON c.taxpayer_id = tp.id,
      (SELECT coalesce(max(chain_seq), 0) AS n FROM invoices WHERE taxpayer_id = ${taxpayerId}) m, g
    WHERE tp.id = ${taxpayerId}`);
}

test('an outage is dated from its first failed send, survives further failures, ends with an answer, and the overview counts what waits', async () => {
  const taxpayerId = await seedTaxpayer(3);
  const accountId = ((await t.db.execute(sql`SELECT account_id FROM taxpayers WHERE id = ${taxpayerId}`)).rows[0] as { account_id: string }).account_id;
  // One record is in error but still retried (it waits too); one waits for the user (it does not count as the outage's).
  await t.db.execute(sql`UPDATE invoices SET authority_status = 'error', next_attempt_at = now() WHERE taxpayer_id = ${taxpayerId} AND chain_seq = 2`);
  await t.db.execute(sql`UPDATE invoices SET authority_status = 'error' WHERE taxpayer_id = ${taxpayerId} AND chain_seq = 3`);
  expect((await acquireSendLease(t.db, taxpayerId, 'a', TTL)).acquired).toBe(true);
  expect(await outageSummary(t.db, accountId)).toBeUndefined();

  const first = new Date('2026-03-02T08:30:00Z');
  const retryAt = new Date(Date.now() + 1_000);
  expect(await t.db.transaction((tx) => recordFailureTiming(tx, taxpayerId, retryAt, first))).toEqual(first);
  expect(await t.db.transaction((tx) => recordFailureTiming(tx, taxpayerId, retryAt, new Date()))).toEqual(first);
  expect(await outageSummary(t.db, accountId)).toEqual({ waitingRecords: 2, taxpayers: 1, since: first });

  await t.db.transaction((tx) => recordAnswerTiming(tx, taxpayerId, 60));
  expect(await getSendState(t.db, taxpayerId)).toMatchObject({ failingSince: null, consecutiveFailures: 0 });
  expect(await outageSummary(t.db, accountId)).toBeUndefined();
});
