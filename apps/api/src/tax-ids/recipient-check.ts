import Joi from 'joi';
import { validateSpanishNif } from '@vf/core';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import type { JsonAnswer } from '../idempotency/sealed-answer';
import { renderTaxIdAnswer } from './render-tax-id-answer';
import type { TaxIdAnswer, TaxIdCheckService, TaxIdQuestion } from './tax-id-check-service';

export type RecipientCheck = 'warn' | 'refuse';

/** `?recipient_check=warn|refuse` of a registration; other query parameters are not this check's business. */
export const recipientCheckQuery = Joi.object<{ recipient_check?: RecipientCheck }, true>({
  recipient_check: Joi.string()
    .valid('warn', 'refuse')
    .description(
      "Check the invoice's Spanish recipients against the census first: `warn` registers it and adds what the census " +
        'said (`recipient_check`), `refuse` answers `422 recipient_not_in_census` when one is not identified. ' +
        'An answer the census could not give (`unknown`) never refuses.',
    ),
}).unknown(true);

/** The recipients of an invoice body identified by a Spanish NIF (those with IDOtro are not the census's). */
function spanishRecipients(body: unknown): TaxIdQuestion[] {
  const b = (body ?? {}) as { recipient?: unknown; recipients?: unknown };
  const parties = [b.recipient, ...(Array.isArray(b.recipients) ? b.recipients : [])];
  return parties.flatMap((party) => {
    const p = (party ?? {}) as { nif?: unknown; name?: unknown };
    if (typeof p.nif !== 'string' || typeof p.name !== 'string' || p.name.trim() === '') return [];
    const nif = validateSpanishNif(p.nif);
    return nif.valid ? [{ nif: nif.normalized, name: p.name }] : [];
  });
}

const ONE_DAY = 86_400;

/** What the census said of one invoice's recipients and, with `refuse`, the invoice's refusal. */
export interface CheckedRecipients {
  answers: TaxIdAnswer[];
  refusal?: ApiError;
}

function refusalOf(answers: TaxIdAnswer[]): ApiError {
  return new ApiError(
    'recipient_not_in_census',
    'The census does not identify a recipient of this invoice with that NIF and name. Correct the NIF or the name ' +
      '(a similar name is in census_name), or send the recipient as id_type 07 (not registered) with country ES.',
    { extensions: { recipient_check: answers.map(renderTaxIdAnswer) } },
  );
}

/** The taxpayer whose certificate the invoices' sends go with, when they all share one. */
function sharedTaxpayer(bodies: readonly unknown[]): string | undefined {
  const ids = new Set(bodies.map((body) => (body as { taxpayer_id?: unknown } | null)?.taxpayer_id));
  const [only] = ids;
  return ids.size === 1 && typeof only === 'string' && isUuid(only) ? only : undefined;
}

/**
 * Asks the census about the recipients of these invoices in one call, under the certificate their sends go with (the
 * taxpayer's, or the platform's). With `refuse`, an invoice with a recipient the census does not identify is refused
 * before it enters the chain; an answer the census could not give never refuses, nor does a census out of reach.
 */
export async function checkRecipients(
  checks: TaxIdCheckService,
  accountId: string,
  bodies: readonly unknown[],
  mode: RecipientCheck,
): Promise<CheckedRecipients[]> {
  const perInvoice = bodies.map(spanishRecipients);
  const taxIds = perInvoice.flat();
  if (taxIds.length === 0) return bodies.map(() => ({ answers: [] }));
  let answers: TaxIdAnswer[];
  try {
    answers = await checks.check(accountId, { taxIds, maxAge: ONE_DAY, taxpayerId: sharedTaxpayer(bodies) });
  } catch (error) {
    // The invoices say for themselves what is wrong with a taxpayer that is not the account's.
    if (error instanceof ApiError && (error.code === 'census_unavailable' || error.code === 'taxpayer_not_found')) {
      return bodies.map(() => ({ answers: [] }));
    }
    throw error;
  }
  let at = 0;
  return perInvoice.map((recipients) => {
    const mine = answers.slice(at, (at += recipients.length));
    const refused = mode === 'refuse' && mine.some((a) => a.result === 'invalid');
    return refused ? { answers: mine, refusal: refusalOf(mine) } : { answers: mine };
  });
}

/** A registration's answer with what the census said of its recipients. */
export function withRecipientCheck<T>(answer: (r: T) => JsonAnswer, checked: TaxIdAnswer[]): (r: T) => JsonAnswer {
  return (r) => {
    const plain = answer(r);
    return { ...plain, body: { ...(plain.body as object), recipient_check: checked.map(renderTaxIdAnswer) } };
  };
}
