import { CertificateUnusableError, ClientCertificates } from '@vf/authority-client';
import { SignerUnavailableError, type RecordSigner } from './record-signer';
import type { AppConfig } from '@vf/config';
import { senderTaxpayerStore, type Db } from '@vf/db';

/**
 * Signs a taxpayer's NO VERI*FACTU records and events: with its own certificate, or the platform's in
 * social-collaborator mode (the representative's), exactly as the workers pick the certificate they send with. The
 * API signs records as they are registered; the workers sign the six-hour summaries.
 */
export function certificateSigner(deps: {
  db: Db;
  masterKey: Buffer;
  platformCertificate?: AppConfig['platformCertificate'];
  clock: () => Date;
}): RecordSigner {
  let certificates: ClientCertificates | undefined;
  return {
    async identityFor(taxpayerId, reader = deps.db) {
      const taxpayer = await senderTaxpayerStore.byId(reader, taxpayerId);
      if (!taxpayer) throw new SignerUnavailableError('the taxpayer no longer exists');
      certificates ??= new ClientCertificates({
        masterKey: deps.masterKey,
        platformCertificate: deps.platformCertificate,
        now: deps.clock,
      });
      try {
        return certificates.forTaxpayer(taxpayer).signer;
      } catch (err) {
        if (err instanceof CertificateUnusableError) throw new SignerUnavailableError(err.message, { cause: err });
        throw err;
      }
    },
  };
}
