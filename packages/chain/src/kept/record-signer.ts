import type { DbOrTx } from '@vf/db';
import type { SigningIdentity } from '@vf/signing';

/**
 * Who signs a taxpayer's NO VERI*FACTU records: its own certificate, or its representative's (the platform's, in
 * social-collaborator mode), as the workers sign what they send. Supplied by the process that appends.
 */
export interface RecordSigner {
  /**
   * Throws SignerUnavailableError when no certificate can sign for the taxpayer now (missing, unreadable, expired).
   * `reader`: the caller's transaction, which may have just changed the taxpayer's certificate.
   */
  identityFor(taxpayerId: string, reader?: DbOrTx): Promise<SigningIdentity>;
}

export class SignerUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignerUnavailableError';
  }
}

/** A process that never appends in NO VERI*FACTU (a script): every NO VERI*FACTU record is refused, none stored unsigned. */
export const NO_SIGNER: RecordSigner = {
  identityFor: () => Promise.reject(new SignerUnavailableError('this process cannot sign records')),
};
