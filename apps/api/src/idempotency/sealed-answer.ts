import type { Response } from 'express';
import type { SealedAnswer, StoredResponse } from '@vf/db';
import type { ApiError } from '../errors/api-error';
import { problemAnswer } from '../errors/error-handler';
import { idempotencyHandle } from './idempotency';

export interface JsonAnswer {
  status: number;
  location?: string;
  body: unknown;
}

/** What a service stores in the transaction of its write, with an Idempotency-Key: the answer to its result. */
export type SealAnswer<T> = (result: T) => SealedAnswer;

/**
 * With an Idempotency-Key, the route's answer, sealed for the service to store in the transaction of the write it
 * answers: it commits with the write or not at all, so a client that lost the answer (or whose API process died
 * between the commit and the reply) gets it back rather than a second write or a conflict with its own
 * (docs/architecture.md, "Idempotent answers"). This is the one way a successful answer is kept.
 */
export function sealedAnswerFor<T>(res: Response, answer: (result: T) => JsonAnswer): SealAnswer<T> | undefined {
  const handle = idempotencyHandle(res);
  if (!handle) return undefined;
  return (result) => {
    const stored = storedResponse(answer(result));
    (res as Sealing)[SEALED] = { result, stored };
    return handle.seal(stored);
  };
}

/**
 * With an Idempotency-Key, a problem to keep as the key's answer in the transaction of a write whose own answer
 * cannot be kept (a file, not JSON): the retry of a lost answer gets this problem, naming what was written, rather
 * than a second write. The request's own answer still goes out as the route sends it.
 */
export function sealedProblemFor<T>(res: Response, problem: (result: T) => ApiError): SealAnswer<T> | undefined {
  const handle = idempotencyHandle(res);
  if (!handle) return undefined;
  return (result) => handle.seal(problemAnswer(problem(result), String(res.req.id ?? '')));
}

const SEALED = Symbol('sealed answer');

/** The answer last sealed for the request's result: sent as it was stored, not built and serialised again. */
type Sealing = Response & { [SEALED]?: { result: unknown; stored: StoredResponse } };

function storedResponse(a: JsonAnswer): StoredResponse {
  return {
    status: a.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(a.location ? { location: a.location } : {}) },
    body: JSON.stringify(a.body),
  };
}

/** Sends the answer to `result`: the very one sealedAnswerFor sealed for it, if it did. */
export function sendAnswer<T>(res: Response, answer: (result: T) => JsonAnswer, result: T): void {
  const sealed = (res as Sealing)[SEALED];
  sendStored(res, sealed && sealed.result === result ? sealed.stored : storedResponse(answer(result)));
}

/** A route that writes nothing (a dry run): its answer is kept on its own before it goes out, there is no write to lose. */
export async function sendUnwrittenAnswer(res: Response, a: JsonAnswer): Promise<void> {
  const stored = storedResponse(a);
  const handle = idempotencyHandle(res);
  if (handle) await handle.keep(stored);
  sendStored(res, stored);
}

/**
 * The headers and body `res.json` would send (same names, same order), from the body serialised once: Express's
 * `json` and `send` would look the headers up and parse the content type again for each answer.
 */
function sendStored(res: Response, { status, headers, body }: StoredResponse): void {
  res.status(status);
  if (headers.location) res.location(headers.location);
  res.setHeader('Content-Type', headers['content-type']);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** With an Idempotency-Key, a batch's registered items: each one's answer is kept by the append that writes it. */
export interface ItemAnswers<T> {
  /** What a run of this same request already registered (a run whose batch answer was lost), by index. */
  kept(count: number): Promise<Map<number, unknown>>;
  /** Item `index`'s answer, sealed for the append of that item. */
  sealFor(index: number): SealAnswer<T>;
}

export function itemAnswersFor<T>(res: Response, data: (result: T) => unknown): ItemAnswers<T> | undefined {
  const handle = idempotencyHandle(res);
  if (!handle) return undefined;
  return {
    async kept(count) {
      const kept = await handle.keptItems(count);
      return new Map([...kept].map(([index, answer]) => [index, JSON.parse(answer.body) as unknown]));
    },
    sealFor: (index) => (result) => handle.sealItem(index, storedResponse({ status: 201, body: data(result) })),
  };
}
