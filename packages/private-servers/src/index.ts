export { freePort } from './free-port';
export { PrivatePgBouncer } from './private-pgbouncer';
export { PrivatePostgres } from './private-postgres';
export { PrivateRedis } from './private-redis';
export { PrivateRedisCluster } from './private-redis-cluster';
export { PrivateTinyproxy } from './private-tinyproxy';
export { pollUntil } from './poll-until';
export { pollWhileRunning, recordOutput, type ServiceProcess } from './service-process';
export { ended, REPOSITORY_ROOT, startService, stopService } from './service-processes';
