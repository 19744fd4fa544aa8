import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { countCalls } from './testing/count-calls';
import { expectExactChain } from './testing/expect-exact-chain';
import { waitUntil } from '@vf/core/testing';
import { chainJobId } from '@vf/queue';

let t: TestApp;
let server: Server;
beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

test('registrations alone, one after another for one taxpayer: one statement each after the first, their wake-ups merged, the chain exact', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  const register = (n: string) =>
    request(server)
      .post('/api/v1/invoices')
      .set(account.auth)
      .send(invoiceBody(taxpayerId, systemId, { invoice_number: n }))
      .expect(201);
  // The first registration adds the chain's job; later ones find it there.
  await register('RT-0');
  const chains = await t.db.db.execute<{ id: string }>(sql`SELECT id FROM chains WHERE taxpayer_id = ${taxpayerId}`);
  const chainId = chains.rows[0].id;
  await waitUntil(() => t.queues.submission.getJob(chainJobId(chainId)), "the chain's job");
  const counted = countCalls();
  try {
    const n = 5;
    for (let i = 1; i <= n; i++) await register(`RT-${i}`);
    // The first registration after the month's allowance was granted (in a transaction of its own, by RT-0): the chain
    // read (which checks the API key) and the write. Each one after it: the write alone (its own transaction), built
    // on the read kept from the write before, which checks the API key and all that read found. Nothing else: no
    // BEGIN/COMMIT, no key lookup, no metrics or log round trip.
    expect(counted.statements()).toEqual([
      'vf_append_read',
      'vf_append_write_plain',
      ...Array.from({ length: n - 1 }, () => 'vf_append_write_assumed_plain'),
    ]);
    // A wake-up (the check that the chain's job exists) starts after the last registration's write, whenever the
    // merging window lets it go: no record is left without a sender.
    const { issued } = counted;
    await waitUntil(
      async () => issued.lastIndexOf('redis:exists') > issued.lastIndexOf('pg:vf_append_write_assumed_plain'),
      'a wake-up after the last registration',
    );
    // Redis: nothing but those checks, at most one per registration (fewer when merged).
    expect(new Set(counted.commands())).toEqual(new Set(['exists']));
    expect(counted.commands().length).toBeLessThanOrEqual(n);
  } finally {
    counted.stop();
  }
  await expectExactChain(t.db.db, taxpayerId);
});
