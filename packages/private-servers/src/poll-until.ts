/**
 * Polls `probe` until it returns a truthy value, failing with `what` once `timeoutMs` has passed. Made for a server
 * that is still starting: a probe that throws (connection refused) counts as "not yet", and the last error is
 * reported on timeout. To wait on the system's state, where an error is a failure, use `waitUntil` of
 * `@vf/core/testing`.
 */
export async function pollUntil<T>(
  probe: () => Promise<T | false | undefined>,
  what: string,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
