import { retryAfterMs, retryingFetch } from './retrying-fetch.ts';

/** A fetch that answers `statuses` in turn (a thrown Error for 'network') and records each request it got. */
function scripted(statuses: (number | 'network')[], headers: Record<string, string> = {}) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const request = input as Request;
    requests.push(request);
    const next = statuses[requests.length - 1];
    if (next === 'network') throw new TypeError('fetch failed');
    return new Response(JSON.stringify({ body: await request.text() }), { status: next, headers });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

const post = (f: typeof fetch, headers: Record<string, string> = {}) =>
  f('http://service.test/api/v1/invoices', { method: 'POST', body: '{"a":1}', headers });
const fast = { baseDelayMs: 1, maxDelayMs: 5_000 };

test('a write retried after 503 and a network error keeps one Idempotency-Key and its body', async () => {
  const { fetch, requests } = scripted([503, 'network', 201]);
  const response = await post(retryingFetch(fetch, fast));
  expect(response.status).toBe(201);
  expect(await response.json()).toEqual({ body: '{"a":1}' });
  const keys = requests.map((r) => r.headers.get('Idempotency-Key'));
  expect(keys).toHaveLength(3);
  expect(new Set(keys).size).toBe(1);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
});

test("the caller's own Idempotency-Key is the one sent", async () => {
  const { fetch, requests } = scripted([201]);
  await post(retryingFetch(fetch, fast), { 'Idempotency-Key': 'order-42' });
  expect(requests[0].headers.get('Idempotency-Key')).toBe('order-42');
});

test('another 4xx or 5xx is answered at once, and a 429 is retried', async () => {
  for (const status of [400, 409, 422, 500, 502]) {
    const refused = scripted([status, 201]);
    expect((await post(retryingFetch(refused.fetch, fast))).status).toBe(status);
    expect(refused.requests).toHaveLength(1);
  }
  const limited = scripted([429, 201], { 'Retry-After': '0' });
  expect((await post(retryingFetch(limited.fetch, fast))).status).toBe(201);
  expect(limited.requests).toHaveLength(2);
});

test('a Retry-After beyond the longest wait (a spent monthly quota) is returned, not waited for', async () => {
  const { fetch, requests } = scripted([429, 201], { 'Retry-After': '86400' });
  expect((await post(retryingFetch(fetch, fast))).status).toBe(429);
  expect(requests).toHaveLength(1);
});

test('after the last retry the failure is returned as it came', async () => {
  const { fetch, requests } = scripted([503, 503, 503]);
  expect((await post(retryingFetch(fetch, { ...fast, retries: 2 }))).status).toBe(503);
  expect(requests).toHaveLength(3);
});

test('a read is not given an Idempotency-Key', async () => {
  const { fetch, requests } = scripted([200]);
  await retryingFetch(fetch, fast)('http://service.test/api/v1/invoices');
  expect(requests[0].headers.has('Idempotency-Key')).toBe(false);
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  const now = Date.parse('2026-11-29T10:00:00Z');
  expect(retryAfterMs('3', now)).toBe(3000);
  expect(retryAfterMs('Sun, 29 Nov 2026 10:00:05 GMT', now)).toBe(5000);
  expect(retryAfterMs('soon', now)).toBeUndefined();
  expect(retryAfterMs(null, now)).toBeUndefined();
});
