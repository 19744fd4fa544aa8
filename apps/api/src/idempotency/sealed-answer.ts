import type { Response } from 'express';
import type { SealedAnswer, StoredResponse } from '@vf/db';
import { idempotencyHandle } from './idempotency';

export interface JsonAnswer {
  status: number;
  location: string;
  body: unknown;
}

/**
 * With an Idempotency-Key, the route's answer for a chain write, sealed for the writer to store in the very statement
 * that appends the record: it commits with the record or not at all, so a client that lost the answer gets it back
 * rather than a conflict with its own write (docs/architecture.md, "Idempotent answers").
 */
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

/** Sends the same answer sealedAnswerFor sealed. */
export function sendAnswer(res: Response, a: JsonAnswer): void {
  res.status(a.status).location(a.location).json(a.body);
}
