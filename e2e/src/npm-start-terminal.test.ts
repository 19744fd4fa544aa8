import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { pollWhileRunning, recordOutput, type ServiceProcess } from '@vf/private-servers';
import { npmStartEnv } from './support/npm-start-env';

// What `npm start` shows a person at a terminal: its compiled script run in a pseudo-terminal (util-linux `script`),
// as a shell would run it, and stopped with Ctrl-C typed into that terminal.
const root = path.resolve(__dirname, '../..');
// Colours and the terminal's carriage returns aside, the text a person reads.
const readable = (printed: string) => stripVTControlCharacters(printed).replace(/\r/g, '');

let db: TestDatabase;
let varDir: string;
let child: ChildProcess;
let service: ServiceProcess;
const said = ['INFO: start: API and dashboard started', 'INFO: api: api listening', 'INFO: worker: worker started'];

beforeAll(async () => {
  db = await createTestDatabase();
  varDir = mkdtempSync(path.join(tmpdir(), 'vf-npm-start-tty-'));
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin?.write('\u0003');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 40_000))]);
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
  await db.destroy();
  rmSync(varDir, { recursive: true, force: true });
});

test('at a terminal, npm start prints time, level, service and message for a person, not JSON', async () => {
  const { env } = await npmStartEnv(db.url, varDir);
  child = spawn('script', ['-qfec', `exec ${process.execPath} scripts/dist/start-all.js`, '/dev/null'], {
    cwd: root,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  service = recordOutput(child);
  // The API, worker and simulator start side by side, in no fixed order: wait until each has said it is up.
  await pollWhileRunning(
    service,
    async () => said.every((line) => readable(service.output.join('')).includes(line)),
    'the API and the worker to say they started',
    120_000,
    500,
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin!.write('\u0003');
  await exited;

  const lines = readable(service.output.join('')).split('\n');
  for (const line of said) expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] ${line}`)));
  expect(lines.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
});
