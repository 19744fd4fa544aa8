import { backoffDelayMs } from './backoff-policy';

const settings = { baseMs: 1_000, maxMs: 60_000 };

test('the delay doubles with each consecutive failure', () => {
  const mid = () => 0.5; // no jitter
  expect([0, 1, 2, 3].map((n) => backoffDelayMs(n, settings, mid))).toEqual([1_000, 2_000, 4_000, 8_000]);
});

test('the delay never exceeds the cap, however many failures', () => {
  for (const r of [0, 0.5, 0.999]) expect(backoffDelayMs(50, settings, () => r)).toBeLessThanOrEqual(60_000);
  expect(backoffDelayMs(50, settings, () => 0.5)).toBe(60_000);
});

test('jitter spreads retries within ±20 % of the nominal delay', () => {
  expect(backoffDelayMs(2, settings, () => 0)).toBe(3_200);
  expect(backoffDelayMs(2, settings, () => 0.999999)).toBe(4_800);
});
