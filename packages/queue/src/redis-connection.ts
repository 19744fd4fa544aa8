import IORedis, { Cluster, type Redis, type RedisOptions } from 'ioredis';
import type { RedisSentinel } from '@vf/config';

/** A connection to the queues' Redis: one server, or a Redis Cluster. */
export type RedisConnection = Redis | Cluster;

/** Where Redis is (REDIS_URL, REDIS_CLUSTER, REDIS_SENTINELS). */
export interface RedisTarget {
  redisUrl: string;
  redisCluster: boolean;
  redisSentinel?: RedisSentinel;
}

/**
 * `worker`: BullMQ's workers block on Redis, and their commands wait across a reconnection (BullMQ requires
 * maxRetriesPerRequest: null). `producer`: the API's connection fails a command at once while Redis is away, so that a
 * request never hangs on it (a registration leaves its chain's job to the reconciler).
 */
export type RedisUse = 'worker' | 'producer';

/**
 * A Redis connection for `use`. On a cluster, REDIS_URL lists one or more seed nodes (comma-separated) and the
 * client discovers the rest; credentials and TLS are the first URL's. BullMQ needs the queues' keys in one slot:
 * QUEUE_PREFIX carries a hash tag ({vf} by default).
 */
export function createRedis(target: string | RedisTarget, use: RedisUse = 'worker'): RedisConnection {
  const { redisUrl, redisCluster, redisSentinel } = typeof target === 'string' ? { redisUrl: target, redisCluster: false } : target;
  const perRequest: RedisOptions = use === 'worker' ? { maxRetriesPerRequest: null, enableReadyCheck: true } : { maxRetriesPerRequest: 1 };
  const enableOfflineQueue = use === 'worker';
  if (redisSentinel) return new IORedis(redisUrl, { ...perRequest, enableOfflineQueue, ...underSentinel(redisSentinel) });
  if (!redisCluster) return new IORedis(redisUrl, { ...perRequest, enableOfflineQueue });
  const seeds = redisUrl.split(',').map((url) => new URL(url));
  const [first] = seeds;
  return new Cluster(
    seeds.map((url) => ({ host: url.hostname, port: Number(url.port || 6379) })),
    {
      enableOfflineQueue,
      redisOptions: {
        ...perRequest,
        username: decodeURIComponent(first.username) || undefined,
        password: decodeURIComponent(first.password) || undefined,
        tls: first.protocol === 'rediss:' ? {} : undefined,
      },
    },
  );
}

/**
 * Options of a connection to the primary the sentinels name. The client asks them at each (re)connection and checks
 * the server's role. A command that reached a former primary turned replica (READONLY) reconnects and is sent again,
 * to the new primary.
 */
function underSentinel(sentinel: RedisSentinel): RedisOptions {
  return {
    sentinels: sentinel.sentinels,
    name: sentinel.name,
    sentinelPassword: sentinel.password,
    reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
  };
}

/** Closes a connection without waiting on a Redis that is away: QUIT needs an answer, a disconnect does not. */
export async function closeRedis(redis: RedisConnection): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}

/** A PING, refused at once while the connection is down (a worker's connection would otherwise queue it). */
export async function pingRedis(redis: RedisConnection): Promise<void> {
  if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
  await redis.ping();
}
