/**
 * Polls `check` until it returns a value (not undefined/false) or the deadline passes. The default deadline is
 * generous: it only has to catch what never happens, and on a machine running two suites at once a record's trip
 * through the worker and the simulator has taken more than 30 s. An error thrown by `check` fails the wait at once;
 * for a server that is still starting, where errors mean "not yet", use `pollUntil` of `@vf/private-servers`.
 */
export async function waitUntil<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 120_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
