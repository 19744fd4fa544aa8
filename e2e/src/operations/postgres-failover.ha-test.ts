import { expectExactChain } from '@vf/api/testing';
import { createDatabase, migrateDatabase } from '@vf/db';
import { PrivateAutoFailover } from '@vf/private-servers';
import { SteadyRegistrations } from '../support/steady-registrations';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// A pg_auto_failover formation of the test's own (monitor, primary, synchronous standby), given to the API and two
// workers as one multi-host DATABASE_URL with target_session_attrs=read-write. While invoices are registered and
// sent, the primary's machine is lost (its keeper killed, PostgreSQL stopped with -m immediate) and the monitor
// promotes the standby: the service must follow it without a restart and lose nothing it answered 201 for.
let formation: PrivateAutoFailover;
let env: WorkerTestEnv;
let party: Party;
let clients: SteadyRegistrations[] = [];

beforeAll(async () => {
  formation = await PrivateAutoFailover.start();
  env = await WorkerTestEnv.create({
    database: async () => {
      const url = formation.url;
      await migrateDatabase(url);
      const database = createDatabase(url);
      database.pool.on('error', () => undefined);
      return {
        ...database,
        url,
        async destroy() {
          await database.close();
          await formation.destroy();
        },
      };
    },
  });
  party = await env.party();
}, 300_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await env?.close();
});

test('losing the primary while invoices are registered and sent: every 201 kept, chains exact, each record accepted once', async () => {
  const taxpayers = await Promise.all([1, 2].map(() => env.taxpayer(party, { certificate: 'own' })));
  await Promise.all([env.startWorker(), env.startWorker()]);
  clients = taxpayers.map((t) => new SteadyRegistrations(env.api, party, t.id));
  await Promise.all(clients.map((c) => c.reached(15)));

  const lost = await formation.primaryPort();
  await formation.loseNode(lost);
  const promoted = await formation.promoted(lost);
  expect(promoted).not.toBe(lost);
  // Registrations go on against the new primary, through the same pools.
  await Promise.all(clients.map((c) => c.reached(c.ids.length + 15)));
  await Promise.all(clients.map((c) => c.stop()));

  const refused = Math.max(...clients.flatMap((c) => c.refusedSeconds));
  console.log(
    `PostgreSQL failover: registrations refused (503, or 409 idempotency_in_progress, with Retry-After) for ${refused.toFixed(1)} s`,
  );
  expect(clients.flatMap((c) => c.unexpected)).toEqual([]);

  const answered = clients.flatMap((c) => c.ids);
  const states = await env.settled(answered);
  expect(states).toHaveLength(answered.length);
  expect(new Set(states.map((s) => s.status))).toEqual(new Set(['accepted']));
  for (const [i, taxpayer] of taxpayers.entries()) {
    const chain = await expectExactChain(env.db.db, taxpayer.id);
    // Retried with their Idempotency-Key, the registrations refused during the failover are one record each.
    expect(chain.map((r) => r.id).sort()).toEqual([...clients[i].ids].sort());
    expect(env.sim.state.counters.registeredByNif[taxpayer.nif].map((r) => r.hash)).toEqual(chain.map((r) => r.hash));
  }
  expect(env.sim.state.counters).toMatchObject({ duplicates: 0, chainMismatches: 0 });
});
