import Joi from 'joi';
import type { RecipientCheck, TaxIdAnswer, TaxIdQuestion } from '@vf/contract';
import { validateEuVatNumber, validateSpanishNif, VIES_COUNTRY_CODES } from '@vf/core';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import type { JsonAnswer } from '../idempotency/sealed-answer';
import { renderTaxIdAnswer } from './render-tax-id-answer';
import { isViesQuestion } from '@vf/tax-ids';
import type { TaxIdCheckService } from './tax-id-check-service';

/** `?recipient_check=warn|refuse` of a registration; other query parameters are not this check's business. */
export const recipientCheckQuery = Joi.object<{ recipient_check?: RecipientCheck }, true>({
  recipient_check: Joi.string()
    .valid('warn', 'refuse')
    .description(
      "Check the invoice's recipients first, Spanish NIFs against the census and EU VAT numbers (`id_type` 02) with VIES: " +
        '`warn` registers it and adds what they said (`recipient_check`), `refuse` answers `422 recipient_not_in_census` ' +
        '(or `recipient_not_in_vies`) when one is not identified. An answer they could not give (`unknown`) never refuses.',
    ),
}).unknown(true);

/**
 * The recipients of an invoice body the check covers: those identified by a Spanish NIF (the census's) and those by an
 * EU VAT number (`id_type` 02 of a VIES member state: VIES's). Other IDOtro identifiers are no registry's to check.
 */
function checkedRecipients(body: unknown): TaxIdQuestion[] {
  const b = (body ?? {}) as { recipient?: unknown; recipients?: unknown };
  const parties = [b.recipient, ...(Array.isArray(b.recipients) ? b.recipients : [])];
  return parties.flatMap((party): TaxIdQuestion[] => {
    const p = (party ?? {}) as { nif?: unknown; name?: unknown; id_type?: unknown; id?: unknown; country?: unknown };
    if (p.id_type === '02' && typeof p.id === 'string') {
      const vat = validateEuVatNumber(typeof p.country === 'string' ? p.country : undefined, p.id);
      // Great Britain's numbers (GB) left VIES in 2021; Northern Ireland's (XI) are in it.
      return vat.valid && VIES_COUNTRY_CODES.has(vat.normalized.slice(0, 2)) ? [{ vatNumber: vat.normalized }] : [];
    }
    if (typeof p.nif !== 'string' || typeof p.name !== 'string' || p.name.trim() === '') return [];
    const nif = validateSpanishNif(p.nif);
    return nif.valid ? [{ nif: nif.normalized, name: p.name }] : [];
  });
}

const ONE_DAY = 86_400;

/** What the census and VIES said of one invoice's recipients and, with `refuse`, the invoice's refusal. */
export interface CheckedRecipients {
  answers: TaxIdAnswer[];
  refusal?: ApiError;
}

/** Refused for the census's answer first (its fix is its own); a VAT number VIES does not know otherwise. */
function refusalOf(answers: TaxIdAnswer[]): ApiError {
  const extensions = { recipient_check: answers.map(renderTaxIdAnswer) };
  if (answers.some((a) => a.result === 'invalid' && a.source !== 'vies')) {
    return new ApiError(
      'recipient_not_in_census',
      'The census does not identify a recipient of this invoice with that NIF and name. Correct the NIF or the name ' +
        '(a similar name is in census_name), or send the recipient as id_type 07 (not registered) with country ES.',
      { extensions },
    );
  }
  return new ApiError(
    'recipient_not_in_vies',
    'VIES does not know a recipient of this invoice by that EU VAT number. Correct the number (with its country prefix), ' +
      'or identify a customer without a valid EU VAT number by another id_type (03 passport, 04 official document, 06 other).',
    { extensions },
  );
}

/** The taxpayer whose certificate the invoices' sends go with, when they all share one. */
function sharedTaxpayer(bodies: readonly unknown[]): string | undefined {
  const ids = new Set(bodies.map((body) => (body as { taxpayer_id?: unknown } | null)?.taxpayer_id));
  const [only] = ids;
  return ids.size === 1 && typeof only === 'string' && isUuid(only) ? only : undefined;
}

const UNANSWERED = ['census_unavailable', 'vies_unavailable', 'taxpayer_not_found'];

/** The check of one kind of recipient; a registry the deployment cannot reach, or a taxpayer not the account's, answers none. */
async function answersOf(
  checks: TaxIdCheckService,
  accountId: string,
  taxIds: TaxIdQuestion[],
  taxpayerId: string | undefined,
): Promise<(TaxIdAnswer | undefined)[]> {
  if (taxIds.length === 0) return [];
  try {
    return await checks.check(accountId, { taxIds, maxAge: ONE_DAY, taxpayerId });
  } catch (error) {
    // The invoices say for themselves what is wrong with a taxpayer that is not the account's.
    if (error instanceof ApiError && UNANSWERED.includes(error.code)) return taxIds.map(() => undefined);
    throw error;
  }
}

/**
 * Asks the census about the Spanish recipients of these invoices in one call and VIES about their EU VAT numbers (a
 * few at a time), under the certificate and VAT number their sends go with (the taxpayer's, or the platform's). With
 * `refuse`, an invoice with a recipient either does not identify is refused before it enters the chain; an answer
 * neither could give never refuses, nor does a registry out of reach.
 */
export async function checkRecipients(
  checks: TaxIdCheckService,
  accountId: string,
  bodies: readonly unknown[],
  mode: RecipientCheck,
): Promise<CheckedRecipients[]> {
  const perInvoice = bodies.map(checkedRecipients);
  const asked = perInvoice.flat();
  if (asked.length === 0) return bodies.map(() => ({ answers: [] }));
  const taxpayerId = sharedTaxpayer(bodies);
  const [census, vies] = await Promise.all([
    answersOf(
      checks,
      accountId,
      asked.filter((q) => !isViesQuestion(q)),
      taxpayerId,
    ),
    answersOf(checks, accountId, asked.filter(isViesQuestion), taxpayerId),
  ]);
  let [c, v] = [0, 0];
  return perInvoice.map((recipients) => {
    const mine = recipients.flatMap((q) => (isViesQuestion(q) ? vies[v++] : census[c++]) ?? []);
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
