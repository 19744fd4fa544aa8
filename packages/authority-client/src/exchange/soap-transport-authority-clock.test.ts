import { checkAuthorityClock } from './soap-transport';

const receivedAt = new Date('2026-03-02T10:00:00Z');

test("the Date header gives the authority's clock minus ours, too far past a minute either way", () => {
  expect(checkAuthorityClock('Mon, 02 Mar 2026 10:00:30 GMT', receivedAt)).toEqual({ offsetSeconds: 30, tooFar: false });
  expect(checkAuthorityClock('Mon, 02 Mar 2026 09:58:10 GMT', receivedAt)).toEqual({ offsetSeconds: -110, tooFar: true });
  expect(checkAuthorityClock('Mon, 02 Mar 2026 10:01:01 GMT', receivedAt)).toEqual({ offsetSeconds: 61, tooFar: true });
});

test('a header that is not a date checks nothing', () => {
  expect(checkAuthorityClock('not a date', receivedAt)).toBeUndefined();
});
