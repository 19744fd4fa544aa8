import { ChainRefusedError, type ChainRefusal, type ItemOutcome as ChainItemOutcome, type RegisteredInvoice } from '@vf/chain';
import { invalidApiKey } from '../auth/require-api-key';
import { ApiError } from '../errors/api-error';
import { quotaExceeded } from '../quota/quota-exceeded';

/** A registration's result as the client gets it: what was registered, or the problem. */
export type ItemOutcome = { ok: true; registered: RegisteredInvoice } | { ok: false; error: ApiError };

export const taxpayerNotFound = () => new ApiError('taxpayer_not_found', 'No taxpayer with this taxpayer_id in your account.');

// Another account's taxpayer or system is exactly as absent as a missing one: 404, never a hint that it exists.
export const systemNotFound = () => new ApiError('system_not_found', 'No computer system with this computer_system_id in your account.');

export const systemSingleTaxpayer = (soleTaxpayerId: string | null) =>
  new ApiError(
    'system_single_taxpayer',
    'This computer system declares it supports one taxpayer (supports_multiple_taxpayers: false) and keeps the records of another taxpayer of your account. Use a system that supports several taxpayers, or create a system (its own installation) for this taxpayer.',
    { extensions: { sole_taxpayer_id: soleTaxpayerId } },
  );

/**
 * A lone registration came with its API key unchecked, and the key's account checks recipients by default: nothing
 * was written, its route registers it again with the account and the check.
 */
export class RecipientCheckDefault extends Error {
  constructor() {
    super('the account checks the recipients of its registrations by default');
    this.name = 'RecipientCheckDefault';
  }
}

/** The one place a refusal of the chain writer (@vf/chain) becomes the API's problem. */
export function problemOf(refusal: ChainRefusal): ApiError {
  switch (refusal.code) {
    case 'unauthorized':
      return invalidApiKey();
    case 'taxpayer_not_found':
      return taxpayerNotFound();
    case 'system_not_found':
      return systemNotFound();
    case 'system_single_taxpayer':
      return systemSingleTaxpayer(refusal.soleTaxpayerId);
    case 'validation_failed':
      return ApiError.validation(refusal.issues);
    case 'duplicate_invoice':
      return new ApiError(
        'duplicate_invoice',
        `Invoice ${refusal.invoiceNumber} of ${refusal.invoiceDate} is already registered for this taxpayer.`,
      );
    case 'quota_exceeded':
      return quotaExceeded(refusal.account, refusal.used, refusal.at);
    case 'system_verifactu_only':
      return new ApiError(
        'system_verifactu_only',
        'The taxpayer works in NO VERI*FACTU mode, and this computer system declares it can only work as VERI*FACTU (only_supports_verifactu: true). Use a system that can work both ways.',
      );
    case 'signing_certificate_unusable':
      return signingCertificateUnusable(refusal.reason);
    case 'recipient_check_default':
      // Only a registration whose key was left to the chain read meets it, and registerInvoice takes it first.
      throw new RecipientCheckDefault();
  }
}

/** In NO VERI*FACTU a record exists only once signed: without a certificate that can sign, nothing is registered. */
export const signingCertificateUnusable = (reason: string) =>
  new ApiError(
    'signing_certificate_unusable',
    `In NO VERI*FACTU mode each record is signed when it is registered, and no certificate can sign for this taxpayer now (${reason}). Upload a valid certificate for the taxpayer; nothing was registered.`,
  );

/** A registration's outcome from the chain writer, its refusal as the API's problem. */
export const clientOutcome = (o: ChainItemOutcome): ItemOutcome => (o.ok ? o : { ok: false, error: problemOf(o.error) });

/** A record of an existing invoice appended by the chain writer: its refusal thrown as the API's problem. */
export async function refusedAsProblem<T>(appending: Promise<T>): Promise<T> {
  try {
    return await appending;
  } catch (err) {
    if (err instanceof ChainRefusedError) throw problemOf(err.refusal);
    throw err;
  }
}
