import { expectExactChain } from '@vf/api/testing';
import { freePort, PrivateRedisSentinel } from '@vf/private-servers';
import { SteadyRegistrations } from '../support/steady-registrations';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// Redis under Sentinel of the test's own (a primary, a replica, three sentinels), given to the API and two workers
// as REDIS_SENTINELS and REDIS_SENTINEL_NAME. While invoices are registered and sent, the Redis primary is killed
// and the sentinels promote the replica: the queues must follow it, strand no chain and send no record twice.
let sentinel: PrivateRedisSentinel;
let env: WorkerTestEnv;
let party: Party;
let clients: SteadyRegistrations[] = [];

beforeAll(async () => {
  sentinel = await PrivateRedisSentinel.start();
  // REDIS_URL names no server: only the sentinels can say where Redis is.
  const nowhere = `redis://127.0.0.1:${await freePort()}`;
  env = await WorkerTestEnv.create({
    env: { REDIS_URL: nowhere, REDIS_SENTINELS: sentinel.sentinelList, REDIS_SENTINEL_NAME: sentinel.name },
  });
  party = await env.party();
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await env?.close();
  await sentinel?.destroy();
});

test('losing the Redis primary while invoices are registered and sent: nothing stranded, each record accepted once', async () => {
  const taxpayers = await Promise.all([1, 2].map(() => env.taxpayer(party, { certificate: 'own' })));
  await Promise.all([env.startWorker(), env.startWorker()]);
  clients = taxpayers.map((t) => new SteadyRegistrations(env.api, party, t.id));
  await Promise.all(clients.map((c) => c.reached(15)));

  const lostAt = Date.now();
  const lost = await sentinel.losePrimary();
  expect(await sentinel.promoted(lost)).not.toBe(lost);
  const promotedSeconds = (Date.now() - lostAt) / 1000;
  await Promise.all(clients.map((c) => c.reached(c.ids.length + 15)));
  await Promise.all(clients.map((c) => c.stop()));

  const refused = Math.max(0, ...clients.flatMap((c) => c.refusedSeconds));
  console.log(
    `Redis Sentinel failover: replica promoted ${promotedSeconds.toFixed(1)} s after the primary was lost; registrations refused for ${refused.toFixed(1)} s`,
  );
  expect(clients.flatMap((c) => c.unexpected)).toEqual([]);

  const answered = clients.flatMap((c) => c.ids);
  const states = await env.settled(answered);
  expect(new Set(states.map((s) => s.status))).toEqual(new Set(['accepted']));
  for (const [i, taxpayer] of taxpayers.entries()) {
    const chain = await expectExactChain(env.db.db, taxpayer.id);
    expect(chain.map((r) => r.id).sort()).toEqual([...clients[i].ids].sort());
    expect(env.sim.state.counters.registeredByNif[taxpayer.nif].map((r) => r.hash)).toEqual(chain.map((r) => r.hash));
  }
  expect(env.sim.state.counters).toMatchObject({ duplicates: 0, chainMismatches: 0 });
});
