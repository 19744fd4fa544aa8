import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { AttemptResult } from '@vf/db';
import { checkDestination, pinnedLookup, type DestinationPolicy } from '@vf/webhook-destination';

export interface OutgoingWebhook {
  id: string;
  url: string;
  /** whsec_… */
  secret: string;
  payload: string;
}

export interface SendOptions {
  timeoutMs: number;
  /** Where webhooks may go (WEBHOOK_ALLOWED_HOSTS besides public addresses). */
  destinations: DestinationPolicy;
  now?: Date;
}

/**
 * One signed POST (Standard Webhooks headers). The URL's host is checked again before every attempt (a name may have
 * turned internal since the endpoint was registered), and the connection goes to the address that was checked, never
 * to a second resolution of the name. Any 2xx is a delivery; a refused destination, a redirect (never followed),
 * another status, a network error or no answer within the timeout is a failed attempt. The answer's body is not read.
 */
export async function sendWebhook(message: OutgoingWebhook, options: SendOptions): Promise<AttemptResult> {
  const { timeoutMs, now = new Date() } = options;
  const destination = await checkDestination(message.url, options.destinations);
  if (!destination.ok) return { ok: false, responseCode: null, error: `destination refused: the URL ${destination.problem}` };
  const signature = new Webhook(message.secret).sign(message.id, now, message.payload);
  const send = message.url.startsWith('https:') ? httpsRequest : httpRequest;
  try {
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(message.url, {
        method: 'POST',
        lookup: pinnedLookup(destination.address),
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(message.payload),
          'user-agent': 'verifactu-service-webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
      });
      req.on('response', resolve);
      req.on('error', reject);
      req.end(message.payload);
    });
    res.destroy();
    const status = res.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    return { ok, responseCode: status, error: ok ? null : `HTTP ${status}` };
  } catch (err) {
    const name = (err as Error).name;
    const error = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : (err as Error).message;
    return { ok: false, responseCode: null, error };
  }
}
