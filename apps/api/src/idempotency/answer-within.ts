import type { Response } from 'express';
import type { SealedAnswer, StoredResponse } from '@vf/db';
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
  return (tx, result) => handle.storeWithin(tx, storedResponse(answer(result)));
}

/** The same for a write that stores the answers itself, in its own statement (registrations): the answer sealed. */
export function sealedAnswerFor<T>(res: Response, answer: (result: T) => JsonAnswer): ((result: T) => SealedAnswer) | undefined {
  const handle = idempotencyHandle(res);
  if (!handle) return undefined;
  return (result) => handle.seal(storedResponse(answer(result)));
}

function storedResponse(a: JsonAnswer): StoredResponse {
  return {
    status: a.status,
    headers: { 'content-type': 'application/json; charset=utf-8', location: a.location },
    body: JSON.stringify(a.body),
  };
}

/** Sends the same answer answerWithin stored. */
export function sendAnswer(res: Response, a: JsonAnswer): void {
  res.status(a.status).location(a.location).json(a.body);
}
