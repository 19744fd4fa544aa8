export { freePort } from './free-port';
export { PrivatePostgres } from './private-postgres';
export { PrivateRedis } from './private-redis';
export { pollUntil } from './poll-until';
export { pollWhileRunning, recordOutput, type ServiceProcess } from './service-process';
export { ended, REPOSITORY_ROOT, startService, stopService } from './service-processes';
