export * from './queues';
export { reconcileStranded } from './reconcile-stranded';
export { closeRedis, createRedis, pingRedis, type RedisConnection, type RedisTarget, type RedisUse } from './redis-connection';
