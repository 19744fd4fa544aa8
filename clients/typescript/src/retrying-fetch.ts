/** How failed calls are retried: on 429, 503 and network errors only, never on another 4xx. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** The first backoff, doubled on each retry, with full jitter (default 500 ms). */
  baseDelayMs?: number;
  /** A longer wait is not made: a `Retry-After` beyond it (the monthly quota) returns the answer (default 30 s). */
  maxDelayMs?: number;
}

const RETRYABLE = new Set([429, 503]);
const WRITES = new Set(['POST', 'PUT', 'PATCH']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A fetch that retries as the service asks. A write gets an `Idempotency-Key` (unless it has one) that every retry
 * reuses, so a retry after a lost answer gets the first answer back instead of writing twice.
 */
export function retryingFetch(fetchImpl: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const { retries = 3, baseDelayMs = 500, maxDelayMs = 30_000 } = options;
  const backoff = (attempt: number) => Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return async (input, init) => {
    const request = new Request(input, init);
    if (WRITES.has(request.method) && !request.headers.has('Idempotency-Key')) request.headers.set('Idempotency-Key', crypto.randomUUID());
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await fetchImpl(request.clone());
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        await sleep(backoff(attempt));
        continue;
      }
      if (last || !RETRYABLE.has(response.status)) return response;
      const asked = retryAfterMs(response.headers.get('Retry-After'));
      if (asked !== undefined && asked > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(asked === undefined ? backoff(attempt) : asked + Math.random() * baseDelayMs);
    }
  };
}
