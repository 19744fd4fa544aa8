import { execFileSync } from 'node:child_process';
import path from 'node:path';

const linux = process.platform === 'linux' ? test : test.skip;

// In a process of its own: niceness cannot be raised back without privilege.
linux('every thread of the process, those that existed before too, gets the niceness', () => {
  const script = `
    const { readdirSync, readFileSync } = require('node:fs');
    require(${JSON.stringify(path.join(__dirname, 'lower-priority.ts'))}).lowerPriority(7);
    const nice = (tid) => Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
    // A thread of libuv's pool, created after the call.
    require('node:crypto').pbkdf2('x', 'y', 1, 8, 'sha256', () => {
      console.log(JSON.stringify(readdirSync('/proc/self/task').map(nice)));
    });`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
  const nices: number[] = JSON.parse(out);
  expect(nices.length).toBeGreaterThan(5);
  expect(new Set(nices)).toEqual(new Set([7]));
});
