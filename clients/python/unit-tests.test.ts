import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

// The Python client's own unit tests (clients/python/tests/unit: retries and Retry-After, the Idempotency-Key reused,
// problems as exceptions, webhook signatures), against local scripted servers, with the Python of the machine.
const run = promisify(execFile);

test("the Python client's unit tests pass", async () => {
  const { stderr } = await run(process.env.PYTHON ?? 'python3', ['-m', 'unittest', 'discover', '-s', 'tests/unit', '-t', '.'], {
    cwd: __dirname,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  }).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`python -m unittest failed:\n${error.stderr ?? error.message}`);
  });
  expect(stderr).toMatch(/^Ran [1-9]\d* tests? in /m);
  expect(stderr.trimEnd()).toMatch(/\nOK$/);
});
