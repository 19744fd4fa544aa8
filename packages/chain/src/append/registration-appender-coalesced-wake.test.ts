import type { AppendedChain } from './append-attempts';
import { coalescedWake } from './registration-appender';

const chain = (chainId: string, full = false): AppendedChain => ({ chainId, count: 1, backlog: full ? 1000 : 1 });
const isFull = (c: AppendedChain) => c.backlog >= 1000;

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('the first wake-up goes at once; those asked for within the window go together when it ends, each chain once', async () => {
  const woken: [string, boolean][][] = [];
  const wake = jest.fn(async (chains: Map<string, boolean>) => void woken.push([...chains]));
  const lone = coalescedWake(wake, 50, () => Date.now());

  void lone([chain('a')], isFull);
  expect(woken).toEqual([[['a', false]]]);

  const second = lone([chain('a')], isFull);
  const third = lone([chain('b', true)], isFull);
  const fourth = lone([chain('a', true)], isFull);
  expect(wake).toHaveBeenCalledTimes(1);
  expect(second).toBe(third);
  expect(third).toBe(fourth);

  await jest.advanceTimersByTimeAsync(50);
  await second;
  // One wake-up for the three registrations: every chain named, a full message waiting if any of its commits said so.
  expect(woken[1]).toEqual([
    ['a', true],
    ['b', true],
  ]);

  // The next window: merged again, never more than one wake-up a window.
  void lone([chain('c')], isFull);
  expect(wake).toHaveBeenCalledTimes(2);
  await jest.advanceTimersByTimeAsync(50);
  expect(woken[2]).toEqual([['c', false]]);

  // After a quiet window, a wake-up goes at once again.
  await jest.advanceTimersByTimeAsync(200);
  void lone([chain('d')], isFull);
  expect(woken[3]).toEqual([['d', false]]);
});

test("a merged wake-up resolves to the wake-up's error, for every registration it stands for", async () => {
  const failure = new Error('redis away');
  const lone = coalescedWake(
    async () => failure,
    50,
    () => Date.now(),
  );
  await lone([chain('a')], isFull);
  const merged = [lone([chain('a')], isFull), lone([chain('b')], isFull)];
  await jest.advanceTimersByTimeAsync(50);
  expect(await Promise.all(merged)).toEqual([failure, failure]);
});
