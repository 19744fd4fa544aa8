import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

// Buffered lines (createLogger's `buffered`) are written whole, in order, and none is lost: on exit, on a crash, and
// while the process idles (within LOG_FLUSH_INTERVAL_MS, not only once 2 KB have gathered).
const FIXTURE = path.join(__dirname, 'testing/buffered-logger-process.cjs');
const run = (...args: string[]) => spawnSync(process.execPath, [FIXTURE, ...args], { encoding: 'utf8', timeout: 60_000 }).stdout;

function parsed(stdout: string): { i?: number; msg: string }[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { i?: number; msg: string });
}

test('every line reaches stdout, whole and in order, when the process exits', () => {
  const lines = parsed(run('2000', 'exit'));
  expect(lines.map((l) => l.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
});

test('a crash writes the lines before it and its own', () => {
  const lines = parsed(run('30', 'crash'));
  expect(lines.filter((l) => l.msg === 'line').map((l) => l.i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  expect(lines.at(-1)).toMatchObject({ msg: 'process crashed' });
});

test('a line logged by an idle process is written without waiting for more', async () => {
  const child = spawn(process.execPath, [FIXTURE, '1', 'stay'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(String(chunk))));
    expect(parsed(first)).toEqual([expect.objectContaining({ i: 0, msg: 'line' })]);
  } finally {
    child.kill();
  }
});
