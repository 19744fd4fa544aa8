import IORedis, { Cluster } from 'ioredis';
import { PrivateRedisCluster } from '@vf/private-servers';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// The queues on a three-node Redis Cluster: the API enqueues and two workers take the jobs through cluster clients,
// every key of the deployment in the slot of its hash-tagged prefix.
let cluster: PrivateRedisCluster;
let env: WorkerTestEnv;
let party: Party;

beforeAll(async () => {
  cluster = await PrivateRedisCluster.start();
  env = await WorkerTestEnv.create({ env: { REDIS_URL: cluster.url, REDIS_CLUSTER: 'true' } });
  party = await env.party();
});
afterAll(async () => {
  await env?.close();
  await cluster?.destroy();
});

test('registrations drained through a Redis Cluster by two workers end accepted, each record sent once', async () => {
  const taxpayers = await Promise.all([1, 2, 3].map(() => env.taxpayer(party, { certificate: 'own' })));
  const registered = await Promise.all(taxpayers.map((t) => env.register(party, t.id, 30)));
  await Promise.all([env.startWorker(), env.startWorker()]);
  const states = await env.settled(registered.flat());
  expect(states.map((s) => s.status)).toEqual(Array(90).fill('accepted'));
  for (const taxpayer of taxpayers) expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(30);
  // The queues really lived on the cluster, not on the Redis server the other tests use.
  const meta = `${env.config.queuePrefix}:invoice-submission:meta`;
  const onCluster = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
  const standalone = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    expect({ onCluster: await onCluster.exists(meta), standalone: await standalone.exists(meta) }).toEqual({ onCluster: 1, standalone: 0 });
  } finally {
    onCluster.disconnect();
    standalone.disconnect();
  }
});
