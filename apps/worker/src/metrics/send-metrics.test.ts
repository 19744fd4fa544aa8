import pino from 'pino';
import { authorityClockOffset } from '@vf/metrics';
import { recordClockOffset } from './send-metrics';

function capturingLogger() {
  const lines: { level: number; msg: string; offsetSeconds?: number }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

test("the authority's Date header sets the clock offset; past 60 s the worker warns, within it it stays quiet", async () => {
  const { logger, lines } = capturingLogger();
  const receivedAt = new Date('2026-03-02T10:00:00Z');
  recordClockOffset(logger, 'Mon, 02 Mar 2026 10:00:30 GMT', receivedAt, 'chain-1');
  expect((await authorityClockOffset.get()).values[0].value).toBe(30);
  expect(lines).toEqual([]);

  recordClockOffset(logger, 'Mon, 02 Mar 2026 09:58:10 GMT', receivedAt, 'chain-1');
  expect((await authorityClockOffset.get()).values[0].value).toBe(-110);
  expect(lines).toEqual([expect.objectContaining({ level: 40, offsetSeconds: -110, msg: expect.stringMatching(/more than 60 s.*2004/) })]);

  recordClockOffset(logger, 'not a date', receivedAt, 'chain-1');
  expect((await authorityClockOffset.get()).values[0].value).toBe(-110);
});
