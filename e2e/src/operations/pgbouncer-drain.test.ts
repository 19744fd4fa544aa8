import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { PrivatePgBouncer } from '@vf/private-servers';
import { databaseBehind } from '../support/database-behind';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// The API and two workers reach PostgreSQL only through PgBouncer in transaction pooling, with fewer server
// connections than they have clients: consecutive transactions of one client run on different server connections,
// so anything the service kept on a session between transactions (a named prepared statement, a setting, a session
// advisory lock, LISTEN) would fail or leak here.
let target: TestDatabase;
let bouncer: PrivatePgBouncer;
let env: WorkerTestEnv;
let party: Party;

beforeAll(async () => {
  env = await WorkerTestEnv.create({
    database: async () => {
      target = await createTestDatabase();
      bouncer = await PrivatePgBouncer.start(
        { host: '127.0.0.1', port: Number(new URL(target.url).port || 5432) },
        { serverConnections: 3 },
      );
      const stop = async () => {
        await bouncer.destroy();
        await target.destroy();
      };
      return databaseBehind(bouncer.url(target.name), stop, 'transaction');
    },
    env: { DATABASE_POOL_MODE: 'transaction' },
  });
  party = await env.party();
});
afterAll(async () => {
  await env?.close();
});

test('registrations through the API and their sending by two workers, all through PgBouncer (transaction pooling), end accepted in chain order', async () => {
  const taxpayers = await Promise.all([1, 2, 3].map(() => env.taxpayer(party, { certificate: 'own' })));
  const registered = await Promise.all(taxpayers.map((t) => env.register(party, t.id, 30)));
  await Promise.all([env.startWorker(), env.startWorker()]);
  const states = await env.settled(registered.flat());
  expect(states.map((s) => s.status)).toEqual(Array(90).fill('accepted'));
  for (const [i, taxpayer] of taxpayers.entries()) {
    expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(30);
    const chain = states.filter((s) => registered[i].includes(s.id)).map((s) => s.chainSeq);
    expect(chain).toEqual(chain.map((_, k) => chain[0] + k));
  }
  // Every query went through the bouncer, and it saw no client misbehave.
  expect(bouncer.log()).not.toMatch(/prepared statement|unsupported startup parameter|server_reset_query/i);
});
