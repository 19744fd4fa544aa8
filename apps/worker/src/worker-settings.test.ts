import { loadWorkerSettings } from './worker-settings';

test('a worker names itself after its host and process unless told, and keeps a send lease 30 s by default', () => {
  const settings = loadWorkerSettings({});
  expect(settings.workerId).toMatch(new RegExp(`:${process.pid}$`));
  expect(settings.leaseTtlMs).toBe(30_000);
  expect(loadWorkerSettings({ WORKER_ID: 'w-7', SENDER_LEASE_TTL_MS: '5000' })).toEqual({ workerId: 'w-7', leaseTtlMs: 5_000, metricsPort: 0 });
});

test('a lease too short to renew is refused at start-up', () => {
  expect(() => loadWorkerSettings({ SENDER_LEASE_TTL_MS: '10' })).toThrow(/SENDER_LEASE_TTL_MS/);
});

test('a metrics listener is off unless a port is given, and only with the operator credentials', () => {
  expect(loadWorkerSettings({}).metricsPort).toBe(0);
  const admin = { ADMIN_USER: 'operator', ADMIN_PASSWORD: 'a-long-admin-password' };
  expect(loadWorkerSettings({ WORKER_METRICS_PORT: '9464', ...admin }).metricsPort).toBe(9464);
  expect(() => loadWorkerSettings({ WORKER_METRICS_PORT: '9464' })).toThrow(/WORKER_METRICS_PORT needs ADMIN_USER and ADMIN_PASSWORD/);
  expect(() => loadWorkerSettings({ WORKER_METRICS_PORT: 'nine' })).toThrow(/WORKER_METRICS_PORT/);
});
