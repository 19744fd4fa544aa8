import { loadWorkerSettings } from './worker-settings';

test('a worker names itself after its host and process unless told, and keeps a send lease 30 s by default', () => {
  const settings = loadWorkerSettings({});
  expect(settings.workerId).toMatch(new RegExp(`:${process.pid}$`));
  expect(settings.leaseTtlMs).toBe(30_000);
  expect(loadWorkerSettings({ WORKER_ID: 'w-7', SENDER_LEASE_TTL_MS: '5000' })).toEqual({ workerId: 'w-7', leaseTtlMs: 5_000 });
});

test('a lease too short to renew is refused at start-up', () => {
  expect(() => loadWorkerSettings({ SENDER_LEASE_TTL_MS: '10' })).toThrow(/SENDER_LEASE_TTL_MS/);
});
