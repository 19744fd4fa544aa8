import { waitForQuietWorker, type QuietWaitDeps } from './quiet-worker';

/** A worker whose CPU time grows by `perSecond[i]` ms in its i-th second, then stays. */
function worker(perSecond: number[]): QuietWaitDeps {
  let clock = 0;
  let cpu = 0;
  let second = 0;
  return {
    cpuMs: () => cpu,
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
      cpu += perSecond[second++] ?? 0;
    },
  };
}

test('an idle worker is quiet after one second', async () => {
  expect(await waitForQuietWorker(60_000, worker([]))).toEqual({ waitedMs: 1000, quiet: true });
});

test('a worker sending a backlog is waited for until a second passes with under 5% of a core', async () => {
  expect(await waitForQuietWorker(60_000, worker([900, 850, 400, 60, 20]))).toEqual({ waitedMs: 5000, quiet: true });
});

test('a worker that never rests is waited for up to the limit, and said so', async () => {
  expect(await waitForQuietWorker(3000, worker(Array(10).fill(700)))).toEqual({ waitedMs: 3000, quiet: false });
});

test('a worker that is gone is not waited for', async () => {
  const gone = { ...worker([]), cpuMs: () => null };
  expect(await waitForQuietWorker(60_000, gone)).toEqual({ waitedMs: 1000, quiet: false });
});
