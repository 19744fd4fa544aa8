import {
  AUTHORITY_STATUSES,
  FINAL_STATUSES,
  STATUS_TRANSITIONS,
  WAITING_STATUSES,
  canTransition,
  isScheduledForSending,
  statusesMovableTo,
} from '.';

test('nothing leaves a final status, and every status can be reached', () => {
  for (const t of STATUS_TRANSITIONS) expect(FINAL_STATUSES).not.toContain(t.from);
  for (const s of AUTHORITY_STATUSES) expect(STATUS_TRANSITIONS.some((t) => t.to === s)).toBe(true);
});

test('only an answer of the authority rejects or accepts a record', () => {
  for (const to of ['accepted', 'accepted_with_warnings', 'rejected'] as const) {
    expect([...new Set(STATUS_TRANSITIONS.filter((t) => t.to === to).map((t) => t.by))]).toEqual(['authority']);
  }
  expect(canTransition('queued', 'rejected', 'worker')).toBe(false);
  expect(canTransition('error', 'rejected', 'authority')).toBe(false);
  // Only the 2007 that earlier versions kept in error: the authority had stored it with that warning.
  expect(STATUS_TRANSITIONS.filter((t) => t.from === 'error' && t.by === 'authority').map((t) => t.to)).toEqual(['accepted_with_warnings']);
});

test('an error goes back to the queue only by the user or the reconciler, never to a new record', () => {
  expect(statusesMovableTo('queued', 'user')).toEqual(['error']);
  expect(statusesMovableTo('queued', 'reconciler')).toEqual(['error']);
  expect(statusesMovableTo('queued', 'worker')).toEqual(['sent']);
});

test('an error with a planned attempt is still the workers’ business; one without waits for a person', () => {
  expect(WAITING_STATUSES).toEqual(['queued', 'sent']);
  expect(isScheduledForSending({ status: 'error', nextAttemptAt: new Date() })).toBe(true);
  expect(isScheduledForSending({ status: 'error', nextAttemptAt: null })).toBe(false);
  expect(isScheduledForSending({ status: 'queued', nextAttemptAt: null })).toBe(true);
  expect(isScheduledForSending({ status: 'rejected', nextAttemptAt: null })).toBe(false);
});
