import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Express } from 'express';
import request from 'supertest';
import { invoiceBody } from '@vf/api/testing';
import type { Party } from './worker-test-env';

/** How long a client waits before retrying a refused registration (the answer's Retry-After is 5 s: shorter here). */
const RETRY_PAUSE_MS = 250;

/**
 * The refusals a client is told to retry: `503` while a dependency is away, and `409 idempotency_in_progress` while
 * the claim of an attempt cut short (its key taken, its answer never kept) has not expired. Both with Retry-After.
 */
function isComeBackLater(res: { status: number; headers: Record<string, string>; body: { code?: string } }): boolean {
  const retryable = res.status === 503 || (res.status === 409 && res.body.code === 'idempotency_in_progress');
  return retryable && Boolean(res.headers['retry-after']);
}

/**
 * A client registering one invoice after another for a taxpayer, as a till would: each invoice with its own
 * Idempotency-Key, retried with the same key until it is answered 201. It keeps what a failover test checks: the ids
 * answered 201, every answer that was neither 201 nor a refusal to retry later, and how long registrations were refused
 * at a stretch (its own clock, from the first refusal to the next 201).
 */
export class SteadyRegistrations {
  readonly ids: string[] = [];
  readonly unexpected: string[] = [];
  readonly refusedSeconds: number[] = [];
  private stopped = false;
  private readonly running: Promise<void>;

  constructor(
    private readonly api: Express,
    private readonly party: Party,
    private readonly taxpayerId: string,
  ) {
    this.running = this.loop();
  }

  /** Resolves once `count` registrations have been answered 201. */
  async reached(count: number): Promise<void> {
    while (this.ids.length < count && !this.stopped) await sleep(100);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const key = randomUUID();
      const body = invoiceBody(this.taxpayerId, this.party.systemId);
      let refusedSince: number | undefined;
      for (;;) {
        const res = await request(this.api).post('/api/v1/invoices').set(this.party.account.auth).set('Idempotency-Key', key).send(body);
        if (res.status === 201) {
          this.ids.push(res.body.data.id);
          if (refusedSince !== undefined) this.refusedSeconds.push((Date.now() - refusedSince) / 1000);
          break;
        }
        if (!isComeBackLater(res)) this.unexpected.push(`${res.status} ${JSON.stringify(res.body)}`);
        refusedSince ??= Date.now();
        if (this.stopped) return;
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }
}
