import { freePort, PrivateRedisSentinel } from '@vf/private-servers';
import { FailoverRun } from '../support/failover-run';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// Redis under Sentinel of the test's own (a primary, a replica, three sentinels), given to the API and two workers
// as REDIS_SENTINELS and REDIS_SENTINEL_NAME. While invoices are registered and sent, the Redis primary is killed
// and the sentinels promote the replica: the queues must follow it, strand no chain and send no record twice.
let sentinel: PrivateRedisSentinel;
let env: WorkerTestEnv;
let party: Party;
let run: FailoverRun | undefined;

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
  await run?.stop();
  await env?.close();
  await sentinel?.destroy();
});

test('losing the Redis primary while invoices are registered and sent: nothing stranded, each record accepted once', async () => {
  run = await FailoverRun.start(env, party, 15);
  const lostAt = Date.now();
  const lost = await sentinel.losePrimary();
  expect(await sentinel.promoted(lost)).not.toBe(lost);
  const promotedSeconds = (Date.now() - lostAt) / 1000;
  const refused = await run.goOn(15);
  console.log(
    `Redis Sentinel failover: replica promoted ${promotedSeconds.toFixed(1)} s after the primary was lost; registrations refused for ${refused.toFixed(1)} s`,
  );
  await run.expectNothingLostOrSentTwice();
});
