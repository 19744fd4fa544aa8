import type { RegistrationRecord } from '@vf/core';
import type { SendState } from '@vf/db';
import { judgeRetry, retryTime } from './plan-retry';
import type { SentRecord, Verdict } from './judge-answer';

const sent = (attempt: number): SentRecord => ({
  invoiceId: 'inv-1',
  record: { id: { issuerNif: '89890001K', invoiceNumber: 'F-1', invoiceDate: '01-03-2025' } } as RegistrationRecord,
  attempt,
});

test('a failed send is retried without limit: queued at first, error (still retried) once failing longer than the threshold', () => {
  const retryAt = new Date('2025-03-02T10:00:00Z');
  const plan = { retryAt, failingSince: new Date('2025-03-01T09:00:00Z'), errorAfterSeconds: 86_400 };
  const again = (n: number) => [{ kind: 'again', sent: sent(n), reason: 'transport error: ECONNRESET' } as const];
  const [early] = judgeRetry(again(50), { ...plan, now: new Date('2025-03-01T10:00:00Z') });
  expect(early).toMatchObject({
    status: 'queued',
    nextAttemptAt: retryAt,
    lastError: 'transport error: ECONNRESET; next attempt at 2025-03-02T10:00:00.000Z',
  });
  const [late] = judgeRetry(again(500), { ...plan, now: new Date('2025-03-02T09:00:00Z') });
  expect(late).toMatchObject({ status: 'error', cause: 'outage', nextAttemptAt: retryAt });
  expect(late.lastError).toMatch(/failing since 2025-03-01T09:00:00.000Z; next attempt at 2025-03-02T10:00:00.000Z$/);
});

test('an answer this service could not understand, nor the Consulta service settle, is an error at once, still retried', () => {
  const [outcome] = judgeRetry([{ kind: 'again', sent: sent(1), reason: 'unknown', code: 9999, unknownState: 'EnProceso' }], {
    retryAt: new Date('2025-03-01T10:05:00Z'),
    failingSince: new Date('2025-03-01T10:00:00Z'),
    now: new Date('2025-03-01T10:00:00Z'),
    errorAfterSeconds: 86_400,
  });
  expect(outcome).toMatchObject({
    status: 'error',
    cause: 'unknown_answer',
    code: 9999,
    message: 'EstadoRegistro EnProceso',
    nextAttemptAt: new Date('2025-03-01T10:05:00Z'),
  });
});

test('a retry waits the backoff, and never less than the waiting time (the last known one after a send without answer)', () => {
  const state = { consecutiveFailures: 2, waitSeconds: 60 } as SendState;
  const now = new Date('2025-03-01T10:00:00Z');
  const backoff = { baseMs: 1_000, maxMs: 600_000, minSeconds: 0 };
  const verdict = (exchange: Verdict['exchange'], waitSeconds: number) => ({ exchange, waitSeconds }) as Verdict;
  expect(retryTime(verdict('unanswered', 0), state, backoff, now, () => 0.5)).toEqual(new Date('2025-03-01T10:01:00Z'));
  expect(retryTime(verdict('answered', 5), state, backoff, now, () => 0.5)).toEqual(new Date('2025-03-01T10:00:05Z'));
  expect(retryTime(verdict('unanswered', 0), { ...state, consecutiveFailures: 8 }, backoff, now, () => 0.5)).toEqual(
    new Date('2025-03-01T10:04:16Z'),
  );
});

test('a failing chain goes again at most once a minute, even when the authority answered a shorter waiting time', () => {
  const state = { consecutiveFailures: 0, waitSeconds: 1 } as SendState;
  const now = new Date('2025-03-01T10:00:00Z');
  const backoff = { baseMs: 20, maxMs: 600_000, minSeconds: 60 };
  const verdict = (exchange: Verdict['exchange'], waitSeconds: number) => ({ exchange, waitSeconds }) as Verdict;
  for (const v of [verdict('unanswered', 0), verdict('answered', 1)])
    expect(retryTime(v, state, backoff, now, () => 0.5)).toEqual(new Date('2025-03-01T10:01:00Z'));
});
