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
 * Every statement a pg client sends and every command an ioredis connection sends, from here on, in the order they are
 * issued (`pg:` and `redis:` before the statement's name or text, the command's name).
 */
function countCalls() {
  const issued: string[] = [];
  const original = Client.prototype.query;
  const query = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const first = args[0] as string | { name?: string; text?: string };
    issued.push(`pg:${typeof first === 'string' ? first : (first.name ?? first.text ?? '?')}`);
    return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  const originalSend = IORedis.prototype.sendCommand;
  const send = jest.spyOn(IORedis.prototype, 'sendCommand').mockImplementation(function (this: IORedis, ...args) {
    issued.push(`redis:${(args[0] as { name: string }).name}`);
    return originalSend.apply(this, args);
  });
  const of = (kind: 'pg' | 'redis') => issued.filter((i) => i.startsWith(`${kind}:`)).map((i) => i.slice(kind.length + 1));
  const stop = () => {
    query.mockRestore();
    send.mockRestore();
  };
  return { issued, statements: () => of('pg'), commands: () => of('redis'), stop };
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
    expect(counted.statements()).toEqual(Array.from({ length: n }, () => ['vf_append_read', 'vf_append_write_plain']).flat());
    // A wake-up (the check that the chain's job exists) starts after the last registration's write, whenever the
    // merging window lets it go: no record is left without a sender.
    const { issued } = counted;
    await waitUntil(
      async () => issued.lastIndexOf('redis:exists') > issued.lastIndexOf('pg:vf_append_write_plain'),
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
