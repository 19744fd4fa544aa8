import pino from 'pino';
import { closeQueueWorkers } from './close-queue-workers';

const logger = pino({ level: 'silent' });

test('a forced close goes on when a worker never finishes closing (Redis away), and says so', async () => {
  const warn = jest.spyOn(logger, 'warn');
  const asked: boolean[] = [];
  const never = (force: boolean) => (asked.push(force), new Promise<void>(() => undefined));
  const closes = (force: boolean) => (asked.push(force), Promise.resolve());
  await closeQueueWorkers([never, closes], true, logger);
  expect(asked).toEqual([true, true]);
  expect(warn).toHaveBeenCalledWith(expect.anything(), 'queue workers left unclosed: Redis is away');
});

test('a graceful close waits for each worker in turn', async () => {
  const order: string[] = [];
  const slow = async (force: boolean) => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push(`first ${force}`);
  };
  const fast = async (force: boolean) => void order.push(`second ${force}`);
  await closeQueueWorkers([slow, fast], false, logger);
  expect(order).toEqual(['first false', 'second false']);
});
