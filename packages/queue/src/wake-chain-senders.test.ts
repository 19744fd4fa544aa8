import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';
import { chainJobId, createQueues, wakeChainSenders, type Queues } from '.';

const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
let queues: Queues;

beforeEach(() => {
  queues = createQueues(redis, `vftest-${randomUUID()}`);
});
afterEach(async () => {
  await queues.submission.obliterate({ force: true });
  await queues.close();
});
afterAll(async () => {
  await redis.quit();
});

const job = (chainId: string) => queues.submission.getJob(chainJobId(chainId));

test('each chain woken has one job afterwards, whether its job was there or not, and a job found there is left as it was', async () => {
  const [sleeping, missing, waiting] = [randomUUID(), randomUUID(), randomUUID()];
  // A sender asleep on flow control, and one about to run.
  await queues.submission.add('send', { chainId: sleeping, readyAt: 42 }, { jobId: chainJobId(sleeping), delay: 60_000 });
  await wakeChainSenders(queues, [{ chainId: waiting }]);
  const before = await job(sleeping);

  await wakeChainSenders(queues, [{ chainId: sleeping }, { chainId: missing }, { chainId: waiting }]);

  for (const chainId of [missing, waiting]) expect((await job(chainId))?.data).toEqual({ chainId });
  const after = await job(sleeping);
  expect(after?.data).toEqual({ chainId: sleeping, readyAt: 42 });
  expect(after?.timestamp).toBe(before?.timestamp);
  expect(await after?.isDelayed()).toBe(true);
  expect(await queues.submission.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 2, delayed: 1 });
});

test('waking chains whose jobs all exist changes nothing in Redis, not even the queue events an add would log', async () => {
  const chains = [{ chainId: randomUUID() }, { chainId: randomUUID() }];
  await wakeChainSenders(queues, chains);
  const events = () => redis.xlen(queues.submission.toKey('events'));
  const before = await events();
  await wakeChainSenders(queues, chains);
  expect(await events()).toBe(before);
  expect(await queues.submission.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 2, delayed: 0 });
});

test('a chain with a full message waiting has its sleeping sender woken, also when every job exists', async () => {
  const [full, other] = [randomUUID(), randomUUID()];
  for (const chainId of [full, other]) await queues.submission.add('send', { chainId }, { jobId: chainJobId(chainId), delay: 60_000 });

  await wakeChainSenders(queues, [{ chainId: full, full: true }, { chainId: other }]);

  expect(await (await job(full))?.isDelayed()).toBe(false);
  expect(await (await job(other))?.isDelayed()).toBe(true);
});
