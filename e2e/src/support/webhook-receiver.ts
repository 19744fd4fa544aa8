import { Queue } from 'bullmq';
import { WEBHOOK_QUEUE } from '@vf/queue';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  type: string;
  data: Record<string, unknown>;
  /** Whether the standardwebhooks library's own verifier accepted the signature. */
  verified: boolean;
  answered: number | 'hung';
}

/** What the receiver answers to one request: a status, or no answer at all. */
export type ReceiverBehaviour = (message: { id: string; type: string }) => number | 'hang';

/** A webhook receiver on 127.0.0.1 that verifies every request as a customer's would. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  secret = '';
  behaviour: ReceiverBehaviour = () => 204;
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    server.on('connection', (s) => {
      receiver.sockets.add(s);
      s.on('close', () => receiver.sockets.delete(s));
    });
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => receiver.handle(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Verified deliveries the receiver acknowledged with a 2xx, in arrival order. */
  accepted(): ReceivedWebhook[] {
    return this.received.filter((r) => r.verified && typeof r.answered === 'number' && r.answered < 300);
  }

  private handle(body: string, headers: Record<string, string>, res: http.ServerResponse): void {
    let verified = true;
    try {
      new Webhook(this.secret).verify(body, headers);
    } catch {
      verified = false;
    }
    const message = JSON.parse(body) as { type: string; data: Record<string, unknown> };
    const answer = verified ? this.behaviour({ id: headers['webhook-id'], type: message.type }) : 400;
    this.received.push({
      id: headers['webhook-id'],
      type: message.type,
      data: message.data,
      verified,
      answered: answer === 'hang' ? 'hung' : answer,
    });
    if (answer !== 'hang') res.writeHead(answer).end();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Removes what a test left in the webhook queue under its prefix. */
export async function obliterateWebhookQueue(redisUrl: string, prefix: string): Promise<void> {
  const queue = new Queue(WEBHOOK_QUEUE, { connection: { url: redisUrl }, prefix });
  await queue.obliterate({ force: true });
  await queue.close();
}
