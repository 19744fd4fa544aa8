export { apiRegistry, httpRequestDuration, registrationsTotal } from './api-metrics';
export { enableDefaultMetrics } from './default-metrics';
export { METRICS_PATH, startMetricsServer, type MetricsServer, type MetricsServerOptions } from './metrics-server';
export { operatorAuthorized, operatorChallenge, type OperatorCredentials } from './operator-auth';
export { flowControlWait, sendDuration, sendsTotal, sentRecordsTotal, webhookDeliveriesTotal, workerRegistry } from './worker-metrics';
