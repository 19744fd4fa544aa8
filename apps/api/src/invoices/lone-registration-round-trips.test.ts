import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import IORedis from 'ioredis';
import { Client } from 'pg';
import request from 'supertest';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
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

/**
 * Every statement a pg client sends and every command an ioredis connection sends, from here on, by text or name.
 * Counted when they are issued: a registration's wake-up goes out (setImmediate) before its answer reaches the client.
 */
function countCalls() {
  const statements: string[] = [];
  const original = Client.prototype.query;
  const query = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const first = args[0] as string | { name?: string; text?: string };
    statements.push(typeof first === 'string' ? first : (first.name ?? first.text ?? '?'));
    return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  const send = jest.spyOn(IORedis.prototype, 'sendCommand');
  const commands = () => send.mock.calls.map(([cmd]) => (cmd as { name: string }).name);
  const stop = () => {
    query.mockRestore();
    send.mockRestore();
  };
  return { statements, commands, stop };
}

test('registrations alone, one after another for one taxpayer: two statements each, their wake-ups merged, the chain exact', async () => {
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
    // Per registration: the chain read (which checks the API key) and the write (its own transaction). Nothing else:
    // no BEGIN/COMMIT, no key lookup, no metrics or log round trip.
    expect(counted.statements).toEqual(Array.from({ length: n }, () => ['vf_append_read', 'vf_append_write_plain']).flat());
    // Redis: at most one EXISTS of the chain's job per registration (fewer when merged), and one after the last answer.
    const during = counted.commands().length;
    expect(during).toBeLessThanOrEqual(n);
    await waitUntil(async () => counted.commands().length > during, 'the wake-up after the last registration');
    expect(new Set(counted.commands())).toEqual(new Set(['exists']));
  } finally {
    counted.stop();
  }
  await expectExactChain(t.db.db, taxpayerId);
});
