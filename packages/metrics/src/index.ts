export { apiRegistry, httpRequestDuration, registrationsTotal } from './api-metrics';
export { enableDefaultMetrics } from './default-metrics';
export { taxIdChecksTotal, taxIdServiceDuration } from './tax-id-metrics';
export { METRICS_PATH, metricsHandler, type MetricsHandlerOptions } from './metrics-handler';
export { operatorAuthorized, operatorChallenge, type OperatorCredentials } from './operator-auth';
export {
  authorityClockOffset,
  countStoppedCertificatesWith,
  flowControlWait,
  scenarioSendsTotal,
  senderStopsTotal,
  sendDuration,
  sendsTotal,
  sentRecordsTotal,
  stoppedCertificates,
  webhookDeliveriesTotal,
  workerRegistry,
} from './worker-metrics';
