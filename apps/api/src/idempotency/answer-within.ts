import type { Response } from 'express';
import type { BeforeCommit } from '../shared/before-commit';
import { idempotencyHandle } from './idempotency';

export interface JsonAnswer {
  status: number;
  location: string;
  body: unknown;
}

/**
 * With an Idempotency-Key, the route's answer is stored inside the write's own transaction: it commits with the
 * record or not at all, so a client that lost the answer gets it back rather than a conflict with its own write.
 */
export function answerWithin<T>(res: Response, answer: (result: T) => JsonAnswer): BeforeCommit<T> | undefined {
  const handle = idempotencyHandle(res);
  if (!handle) return undefined;
  return (tx, result) => {
    const a = answer(result);
    return handle.storeWithin(tx, {
      status: a.status,
      headers: { 'content-type': 'application/json; charset=utf-8', location: a.location },
      body: JSON.stringify(a.body),
    });
  };
}

/** Sends the same answer answerWithin stored. */
export function sendAnswer(res: Response, a: JsonAnswer): void {
  res.status(a.status).location(a.location).json(a.body);
}
