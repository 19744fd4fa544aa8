import { madridDayStart } from './madrid-day-start';

test('a Madrid day starts at its midnight, in winter and in summer time, and on the nights the clocks change', () => {
  expect(madridDayStart('2026-01-15')).toBe('2026-01-15T00:00:00+01:00');
  expect(madridDayStart('2026-07-15')).toBe('2026-07-15T00:00:00+02:00');
  expect(madridDayStart('2026-03-29')).toBe('2026-03-29T00:00:00+01:00');
  expect(madridDayStart('2026-10-25')).toBe('2026-10-25T00:00:00+02:00');
  expect(madridDayStart('2026-12-31', 1)).toBe('2027-01-01T00:00:00+01:00');
  expect(madridDayStart('not a day')).toBe('not a day');
});
