import { Webhook } from 'standardwebhooks';
import type { AttemptResult } from '@vf/db';

export interface OutgoingWebhook {
  id: string;
  url: string;
  /** whsec_… */
  secret: string;
  payload: string;
}

/**
 * One signed POST (Standard Webhooks headers). Any 2xx is a delivery; a redirect, another status, a network error or
 * no answer within the timeout is a failed attempt. The body of the answer is not read.
 */
export async function sendWebhook(message: OutgoingWebhook, timeoutMs: number, now = new Date()): Promise<AttemptResult> {
  const signature = new Webhook(message.secret).sign(message.id, now, message.payload);
  try {
    const res = await fetch(message.url, {
      method: 'POST',
      body: message.payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'verifactu-service-webhooks/1',
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
    await res.body?.cancel().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { ok, responseCode: res.status, error: ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    const name = (err as Error).name;
    const error =
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${timeoutMs} ms`
        : String((err as Error & { cause?: Error }).cause?.message ?? (err as Error).message);
    return { ok: false, responseCode: null, error };
  }
}
