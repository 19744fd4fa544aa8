import { isDependencyFailure } from './dependency-failure';

const pgError = (code: string) => Object.assign(new Error(`SQLSTATE ${code}`), { code });

test('a failover is "unavailable" (503), whichever way a request meets it; a constraint of the data is not', () => {
  // The primary shut down under a session; no server accepts writes yet (the pool's own error); a write reached a
  // server that the failover turned into a standby.
  expect(isDependencyFailure(pgError('57P01'))).toBe(true);
  expect(isDependencyFailure(new Error('query failed', { cause: pgError('08001') }))).toBe(true);
  expect(isDependencyFailure(pgError('25006'))).toBe(true);
  expect(isDependencyFailure(pgError('23505'))).toBe(false);
});
