import { quotaPeriod } from './plan-registrations';

test('the period is the Madrid calendar month and resets at Madrid midnight on the 1st', () => {
  // 31 Jan 23:30 UTC is already 1 Feb in Madrid (UTC+1).
  expect(quotaPeriod(new Date('2025-01-31T23:30:00Z'))).toEqual({ period: '2025-02', resetsAt: new Date('2025-02-28T23:00:00Z') });
  // Summer time (UTC+2).
  expect(quotaPeriod(new Date('2025-07-15T12:00:00Z'))).toEqual({ period: '2025-07', resetsAt: new Date('2025-07-31T22:00:00Z') });
  // The month in which summer time ends resets on winter time; December rolls into the next year.
  expect(quotaPeriod(new Date('2025-10-10T12:00:00Z')).resetsAt).toEqual(new Date('2025-10-31T23:00:00Z'));
  expect(quotaPeriod(new Date('2025-12-31T22:59:59Z'))).toEqual({ period: '2025-12', resetsAt: new Date('2025-12-31T23:00:00Z') });
});
