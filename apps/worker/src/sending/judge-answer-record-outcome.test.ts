import { recordOutcome } from './judge-answer';

test('registered records are final with what the authority stored; a refused one keeps its code and says why', () => {
  expect(recordOutcome.accepted('inv-1', 'CSV', 'accepted by the authority')).toMatchObject({ status: 'accepted', csv: 'CSV' });
  expect(recordOutcome.acceptedWithWarnings('inv-1', 'CSV', { code: 2004, message: 'fuera de margen' }, 'how')).toMatchObject({
    status: 'accepted_with_warnings',
    code: 2004,
    message: 'fuera de margen',
  });
  expect(recordOutcome.rejected('inv-1', null, { code: 1108, message: 'NIF', why: '1108 NIF' })).toMatchObject({
    status: 'rejected',
    code: 1108,
    note: 'rejected: 1108 NIF',
  });
  for (const final of [recordOutcome.accepted('inv-1', null, 'how'), recordOutcome.rejected('inv-1', null, { code: 1108, why: 'x' })])
    expect(final.nextAttemptAt ?? null).toBeNull();
});

test('a record that needs attention is an error with nothing planned; a retried one keeps its next attempt', () => {
  expect(recordOutcome.needsAttention('inv-1', { cause: 'certificate_refused', why: 'holder' })).toMatchObject({
    status: 'error',
    cause: 'certificate_refused',
    lastError: 'holder',
    nextAttemptAt: null,
    note: 'error: holder',
  });
  const retryAt = new Date('2025-03-01T10:05:00Z');
  const retried = { invoiceId: 'inv-1', reason: 'ECONNRESET', retryAt, failingSince: new Date('2025-03-01T10:00:00Z') };
  expect(recordOutcome.retried({ ...retried, overdue: false })).toMatchObject({ status: 'queued', nextAttemptAt: retryAt });
  expect(recordOutcome.retried({ ...retried, overdue: true })).toMatchObject({ status: 'error', cause: 'outage', nextAttemptAt: retryAt });
});
