import { spawn } from 'node:child_process';
import { pollWhileRunning, recordOutput, type ServiceProcess } from './service-process';

const started: ServiceProcess[] = [];
function node(script: string): ServiceProcess {
  const service = recordOutput(spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] }));
  started.push(service);
  return service;
}
const printed = (service: ServiceProcess, text: string) => async () => service.output.join('').includes(text);

afterAll(() => {
  for (const { child } of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

test("answers the probe's value once it holds", async () => {
  const service = node("console.log('ready'); setTimeout(() => {}, 60_000);");
  await expect(pollWhileRunning(service, printed(service, 'ready'), 'the service to be ready', 60_000)).resolves.toBe(true);
});

test('fails at once, with what the process printed, when it ends before the probe holds', async () => {
  const service = node("console.error('port in use'); process.exit(3);");
  // A deadline past the test's own limit: only noticing the end lets this pass.
  await expect(pollWhileRunning(service, printed(service, 'ready'), 'the service to be ready', 600_000)).rejects.toThrow(
    /the process ended \(3\) while waiting for the service to be ready; it printed:\nport in use/,
  );
});

test('a timeout carries what the process printed', async () => {
  const service = node("console.log('still starting'); setTimeout(() => {}, 60_000);");
  await pollWhileRunning(service, printed(service, 'still starting'), 'the first line', 60_000);
  await expect(pollWhileRunning(service, printed(service, 'ready'), 'the service to be ready', 200)).rejects.toThrow(
    /timed out after 200 ms waiting for the service to be ready; the process printed:\nstill starting/,
  );
});
