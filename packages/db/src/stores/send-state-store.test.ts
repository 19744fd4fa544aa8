import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../testing';
import { FULL_BATCH, sendStateStore } from './send-state-store';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.destroy();
});

/** A fresh taxpayer with its sandbox chain holding `queuedInvoices` queued records; returns the chain. */
async function seedChain(queuedInvoices = 0): Promise<string> {
  const r = await t.db.execute(sql`
    WITH a AS (INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
               VALUES ('n', ${randomUUID() + '@x.es'}, 'h', ${randomUUID()}, 'vfk_', 'free') RETURNING id),
         s AS (INSERT INTO computer_systems (account_id, vendor_name, vendor_nif, name, version, installation_number, system_code)
               SELECT id, 'V', 'B85905495', 'S', '1', '1', 'S1' FROM a RETURNING id),
         tp AS (INSERT INTO taxpayers (account_id, nif, name) SELECT id, left(md5(random()::text), 9), 'T' FROM a RETURNING id, nif)
    INSERT INTO chains (taxpayer_id, nif, is_production) SELECT id, nif, false FROM tp RETURNING id`);
  const chainId = (r.rows[0] as { id: string }).id;
  if (queuedInvoices > 0) await seedMore(chainId, queuedInvoices);
  return chainId;
}

/** The same taxpayer's chain in the other environment (after a switch to production). */
async function productionChainOf(sandboxChainId: string): Promise<string> {
  const r = await t.db.execute(sql`
    INSERT INTO chains (taxpayer_id, nif, is_production) SELECT taxpayer_id, nif, true FROM chains WHERE id = ${sandboxChainId} RETURNING id`);
  return (r.rows[0] as { id: string }).id;
}

async function accountOf(chainId: string): Promise<string> {
  const r = await t.db.execute(sql`SELECT t.account_id FROM chains c JOIN taxpayers t ON t.id = c.taxpayer_id WHERE c.id = ${chainId}`);
  return (r.rows[0] as { account_id: string }).account_id;
}

const TTL = 30_000;

test('only one of several concurrent senders gets the lease; the others learn until when it is held', async () => {
  const chainId = await seedChain();
  const owners = Array.from({ length: 8 }, () => randomUUID());
  const attempts = await Promise.all(owners.map((o) => sendStateStore.acquireLease(t.db, chainId, o, TTL)));
  const winners = attempts.filter((a) => a.acquired);
  expect(winners).toHaveLength(1);
  const state = await sendStateStore.get(t.db, chainId);
  // A fresh taxpayer may send at once, so the lease expiry is the earliest next chance.
  for (const a of attempts.filter((x) => !x.acquired)) {
    expect(a).toEqual({ acquired: false, reason: 'leased', retryAt: state!.leaseUntil });
  }
});

test('an expired lease is taken over, and the previous holder can no longer renew it or write under it', async () => {
  const chainId = await seedChain();
  expect((await sendStateStore.acquireLease(t.db, chainId, 'dead-worker', TTL)).acquired).toBe(true);
  await t.db.execute(sql`UPDATE send_states SET lease_until = now() - interval '1 second' WHERE chain_id = ${chainId}`);

  expect((await sendStateStore.acquireLease(t.db, chainId, 'new-worker', TTL)).acquired).toBe(true);
  expect(await sendStateStore.renewLease(t.db, chainId, 'dead-worker', TTL)).toBe(false);
  expect(await t.db.transaction((tx) => sendStateStore.lockOwned(tx, chainId, 'dead-worker'))).toBeUndefined();
  expect(await t.db.transaction((tx) => sendStateStore.lockOwned(tx, chainId, 'new-worker'))).toMatchObject({ leaseOwner: 'new-worker' });
  // Releasing with a stale token does not free the new holder's lease.
  await sendStateStore.releaseLease(t.db, chainId, 'dead-worker');
  expect((await sendStateStore.get(t.db, chainId))?.leaseOwner).toBe('new-worker');
});

test('after an answer the next send waits TiempoEsperaEnvio, unless a full message is waiting', async () => {
  const chainId = await seedChain(FULL_BATCH - 1);
  expect((await sendStateStore.acquireLease(t.db, chainId, 'a', TTL)).acquired).toBe(true);
  await t.db.transaction(async (tx) => {
    await sendStateStore.recordSendStart(tx, chainId, 60_000);
    await sendStateStore.recordAnswerTiming(tx, chainId, 45);
  });
  expect(await sendStateStore.continueLease(t.db, chainId, 'a', TTL)).toBe(false);
  await sendStateStore.releaseLease(t.db, chainId, 'a');

  const state = await sendStateStore.get(t.db, chainId);
  expect(state?.waitSeconds).toBe(45);
  expect(state!.nextSendAt.getTime() - Date.now()).toBeGreaterThan(40_000);
  expect(await sendStateStore.acquireLease(t.db, chainId, 'b', TTL)).toEqual({
    acquired: false,
    reason: 'flow_control',
    retryAt: state!.nextSendAt,
  });

  // One more record makes 1,000 waiting: the send may go now.
  await seedMore(chainId, 1);
  expect((await sendStateStore.acquireLease(t.db, chainId, 'b', TTL)).acquired).toBe(true);
  expect(await sendStateStore.continueLease(t.db, chainId, 'b', TTL)).toBe(true);
});

test('a failure backoff holds even when a full message is waiting (no retry storm on a large backlog)', async () => {
  const chainId = await seedChain(FULL_BATCH + 5);
  expect((await sendStateStore.acquireLease(t.db, chainId, 'a', TTL)).acquired).toBe(true);
  const retryAt = new Date(Date.now() + 3_600_000);
  await t.db.transaction((tx) => sendStateStore.recordFailureTiming(tx, chainId, retryAt, new Date()));
  await sendStateStore.releaseLease(t.db, chainId, 'a');

  expect(await sendStateStore.acquireLease(t.db, chainId, 'b', TTL)).toEqual({ acquired: false, reason: 'flow_control', retryAt });
  expect((await sendStateStore.get(t.db, chainId))?.consecutiveFailures).toBe(1);
});

test('a send that starts pushes the next allowed time past its possible answer plus the waiting time, so a dead sender still counts', async () => {
  const chainId = await seedChain(1);
  expect((await sendStateStore.acquireLease(t.db, chainId, 'a', TTL)).acquired).toBe(true);
  await t.db.transaction((tx) => sendStateStore.recordSendStart(tx, chainId, 10_000));
  // Meanwhile, others learn they need not look again before the send's answer deadline plus the waiting time.
  const meanwhile = await sendStateStore.acquireLease(t.db, chainId, 'c', TTL);
  expect(meanwhile).toMatchObject({ acquired: false, reason: 'leased', retryAt: (await sendStateStore.get(t.db, chainId))!.nextSendAt });
  // The sender dies: its lease expires, yet the next send still waits the 10 s timeout plus the default 60 s.
  await t.db.execute(sql`UPDATE send_states SET lease_until = now() - interval '1 second' WHERE chain_id = ${chainId}`);
  const next = await sendStateStore.acquireLease(t.db, chainId, 'b', TTL);
  expect(next).toMatchObject({ acquired: false, reason: 'flow_control' });
  expect((next as { retryAt: Date }).retryAt.getTime() - Date.now()).toBeGreaterThan(65_000);
});

test("a chain's first lease gives it the waiting time it was told to keep until the authority's first answer", async () => {
  const chainId = await seedChain(1);
  expect((await sendStateStore.acquireLease(t.db, chainId, 'a', TTL, 2)).acquired).toBe(true);
  await t.db.transaction((tx) => sendStateStore.recordSendStart(tx, chainId, 10_000));
  const state = await sendStateStore.get(t.db, chainId);
  expect(state?.waitSeconds).toBe(2);
  // The 10 s timeout plus those 2 s, not the 60 s a chain otherwise assumes.
  expect(state!.nextSendAt.getTime() - Date.now()).toBeLessThan(13_000);
  // Only the row's making reads it: a later lease keeps the chain's waiting time.
  await sendStateStore.releaseLease(t.db, chainId, 'a');
  await t.db.execute(sql`UPDATE send_states SET next_send_at = now() WHERE chain_id = ${chainId}`);
  expect((await sendStateStore.acquireLease(t.db, chainId, 'b', TTL, 30)).acquired).toBe(true);
  expect((await sendStateStore.get(t.db, chainId))?.waitSeconds).toBe(2);
});

/** Appends `count` queued records to the end of the chain. */
async function seedMore(chainId: string, count: number): Promise<void> {
  await t.db.execute(sql`
    WITH g AS (SELECT gen_random_uuid() AS id, n FROM generate_series(1, ${count}) n)
    INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq, invoice_number,
      invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name, system_snapshot_id, is_production,
      generated_at_literal, generated_at, hash, authority_status)
    SELECT g.id, g.id, g.id, c.id, tp.account_id, tp.id, cs.id, m.n + g.n, 'M-' || (m.n + g.n), '2025-01-01', 'F2', 'd', 1, 0, c.nif, 'T',
      gen_random_uuid(), c.is_production, '2025-01-01T10:00:00+01:00', now(), repeat('A', 64), 'queued'
    FROM chains c JOIN taxpayers tp ON tp.id = c.taxpayer_id JOIN computer_systems cs ON cs.account_id = tp.account_id,
      (SELECT coalesce(max(chain_seq), 0) AS n FROM invoices WHERE chain_id = ${chainId}) m, g
    WHERE c.id = ${chainId}`);
}

test('an outage is dated from its first failed send, survives further failures, ends with an answer, and the overview counts what waits', async () => {
  const chainId = await seedChain(3);
  const accountId = await accountOf(chainId);
  // One record is in error but still retried (it waits too); one waits for the user (it does not count as the outage's).
  await t.db.execute(
    sql`UPDATE invoices SET authority_status = 'error', next_attempt_at = now() WHERE chain_id = ${chainId} AND chain_seq = 2`,
  );
  await t.db.execute(sql`UPDATE invoices SET authority_status = 'error' WHERE chain_id = ${chainId} AND chain_seq = 3`);
  expect((await sendStateStore.acquireLease(t.db, chainId, 'a', TTL)).acquired).toBe(true);
  expect(await sendStateStore.outageSummary(t.db, accountId)).toBeUndefined();

  const first = new Date('2026-03-02T08:30:00Z');
  const retryAt = new Date(Date.now() + 1_000);
  expect(await t.db.transaction((tx) => sendStateStore.recordFailureTiming(tx, chainId, retryAt, first))).toEqual(first);
  expect(await t.db.transaction((tx) => sendStateStore.recordFailureTiming(tx, chainId, retryAt, new Date()))).toEqual(first);
  expect(await sendStateStore.outageSummary(t.db, accountId)).toEqual({ waitingRecords: 2, taxpayers: 1, since: first });

  await t.db.transaction((tx) => sendStateStore.recordAnswerTiming(tx, chainId, 60));
  expect(await sendStateStore.get(t.db, chainId)).toMatchObject({ failingSince: null, consecutiveFailures: 0 });
  expect(await sendStateStore.outageSummary(t.db, accountId)).toBeUndefined();
});

test("a taxpayer's sandbox and production chains have a lease, flow control, backoff and outage each", async () => {
  const sandbox = await seedChain(2);
  const production = await productionChainOf(sandbox);
  await seedMore(production, 3);
  const accountId = await accountOf(sandbox);

  // A sender holds the sandbox chain and is waiting for an answer; the production chain may still send at once.
  expect((await sendStateStore.acquireLease(t.db, sandbox, 'sandbox-sender', TTL)).acquired).toBe(true);
  await t.db.transaction((tx) => sendStateStore.recordSendStart(tx, sandbox, 60_000));
  expect((await sendStateStore.acquireLease(t.db, production, 'production-sender', TTL)).acquired).toBe(true);
  expect(await sendStateStore.acquireLease(t.db, sandbox, 'other', TTL)).toMatchObject({ acquired: false, reason: 'leased' });

  // The production sends fail: its backoff and its outage are its own; the sandbox chain keeps its answer's timing.
  const first = new Date('2026-03-02T08:30:00Z');
  const retryAt = new Date(Date.now() + 3_600_000);
  await t.db.transaction((tx) => sendStateStore.recordFailureTiming(tx, production, retryAt, first));
  await t.db.transaction((tx) => sendStateStore.recordAnswerTiming(tx, sandbox, 5));
  expect(await sendStateStore.get(t.db, production)).toMatchObject({ consecutiveFailures: 1, failingSince: first, nextSendAt: retryAt });
  expect(await sendStateStore.get(t.db, sandbox)).toMatchObject({ consecutiveFailures: 0, failingSince: null, waitSeconds: 5 });
  expect(await sendStateStore.outageSummary(t.db, accountId)).toEqual({ waitingRecords: 3, taxpayers: 1, since: first });

  // Neither sender can write under the other chain's lease.
  expect(await t.db.transaction((tx) => sendStateStore.lockOwned(tx, production, 'sandbox-sender'))).toBeUndefined();
  await sendStateStore.releaseLease(t.db, sandbox, 'production-sender');
  expect((await sendStateStore.get(t.db, sandbox))?.leaseOwner).toBe('sandbox-sender');
});

test('letting the lease go marks what waits behind a record in error, and says whether anything is left to send', async () => {
  const chainId = await seedChain(5);
  // Record 2 waits for the user; 3 is queued and 4 retries behind it; 1 and 5 stand apart (1 is before it, 5 is accepted).
  await t.db.execute(sql`UPDATE invoices SET authority_status = 'error' WHERE chain_id = ${chainId} AND chain_seq = 2`);
  await t.db.execute(
    sql`UPDATE invoices SET authority_status = 'error', next_attempt_at = now() WHERE chain_id = ${chainId} AND chain_seq = 4`,
  );
  await t.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE chain_id = ${chainId} AND chain_seq = 5`);
  expect((await sendStateStore.acquireLease(t.db, chainId, 'a', TTL)).acquired).toBe(true);

  // A stale holder writes nothing.
  expect(await sendStateStore.releaseLease(t.db, chainId, 'b')).toBeUndefined();
  const statuses = sql`SELECT chain_seq, authority_status, error_cause FROM invoices WHERE chain_id = ${chainId} ORDER BY chain_seq`;
  expect((await t.db.execute(statuses)).rows.map((r) => r.error_cause)).toEqual([null, null, null, null, null]);

  const ended = await sendStateStore.releaseLease(t.db, chainId, 'a');
  // Record 1 is still queued (before the record in error): something is left to send.
  expect(ended).toEqual({ waiting: true, nextSendAt: (await sendStateStore.get(t.db, chainId))!.nextSendAt });
  expect((await t.db.execute(statuses)).rows).toEqual([
    { chain_seq: 1, authority_status: 'queued', error_cause: null },
    { chain_seq: 2, authority_status: 'error', error_cause: null },
    { chain_seq: 3, authority_status: 'error', error_cause: 'waiting_for_earlier_record' },
    { chain_seq: 4, authority_status: 'error', error_cause: 'waiting_for_earlier_record' },
    { chain_seq: 5, authority_status: 'accepted', error_cause: null },
  ]);
  expect((await sendStateStore.get(t.db, chainId))?.leaseOwner).toBeNull();

  // With record 1 gone too, the records held are not counted as left to send.
  await t.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE chain_id = ${chainId} AND chain_seq = 1`);
  await t.db.execute(
    sql`UPDATE invoices SET authority_status = 'queued', error_cause = NULL WHERE chain_id = ${chainId} AND chain_seq = 3`,
  );
  expect((await sendStateStore.acquireLease(t.db, chainId, 'c', TTL)).acquired).toBe(true);
  expect(await sendStateStore.releaseLease(t.db, chainId, 'c')).toMatchObject({ waiting: false });
});
