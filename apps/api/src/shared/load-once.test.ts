import { loadOnce } from './load-once';

test('callers share one load while it runs and after it succeeds', async () => {
  let loads = 0;
  const get = loadOnce(async () => ({ n: (loads += 1) }));
  const [a, b] = await Promise.all([get(), get()]);
  expect(a).toBe(b);
  expect(await get()).toBe(a);
  expect(loads).toBe(1);
});

test('a failed load is forgotten: the next call loads again', async () => {
  let loads = 0;
  const get = loadOnce(async () => {
    loads += 1;
    if (loads === 1) throw new Error('disk busy');
    return 'board';
  });
  await expect(get()).rejects.toThrow('disk busy');
  await expect(get()).resolves.toBe('board');
  await expect(get()).resolves.toBe('board');
  expect(loads).toBe(2);
});
