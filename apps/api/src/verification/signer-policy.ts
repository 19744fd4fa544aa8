import { readFileSync } from 'node:fs';
import forge from 'node-forge';
import { certificateNif, readPkcs12 } from '@vf/certificates';
import type { AppConfig } from '@vf/config';
import { loadOnce } from '../shared/load-once';

/** Whose certificate may sign a taxpayer's records: the certificate each record is sent with. */
export interface SignerPolicy {
  /** Why a certificate may not sign the records of `issuerNif`; undefined when it may. */
  problem(certificatePem: string, subject: string, issuerNif: string): Promise<string | undefined>;
}

const MAX_REMEMBERED = 1_000;

/**
 * A record is sent, so signed, with the taxpayer's own certificate (whichever of its certificates held then: its
 * NIF is the issuer's) or, in social-collaborator mode, with the platform's (PLATFORM_CERT_PATH). Any other
 * certificate is foreign. Which authority issued it is not checked here: the service holds no list of qualified CAs.
 */
export function createSignerPolicy(platformCertificate: AppConfig['platformCertificate']): SignerPolicy {
  const platformNif = loadOnce(async () => {
    if (!platformCertificate) return undefined;
    try {
      return readPkcs12(readFileSync(platformCertificate.path), platformCertificate.password).nif;
    } catch {
      return undefined;
    }
  });
  // A chain's records share one or two certificates: each is read once.
  const nifs = new Map<string, string | undefined>();
  const nifOf = (pem: string) => {
    if (!nifs.has(pem)) {
      if (nifs.size >= MAX_REMEMBERED) nifs.clear();
      let nif: string | undefined;
      try {
        nif = certificateNif(forge.pki.certificateFromPem(pem));
      } catch {
        // node-forge reads RSA certificates only; any other is no taxpayer's certificate here.
        nif = undefined;
      }
      nifs.set(pem, nif);
    }
    return nifs.get(pem);
  };
  return {
    async problem(certificatePem, subject, issuerNif) {
      const nif = nifOf(certificatePem);
      if (nif === issuerNif || (nif !== undefined && nif === (await platformNif()))) return undefined;
      return `it was signed with a foreign certificate (${subject}, NIF ${nif ?? 'unknown'}): neither the taxpayer's nor the platform's`;
    },
  };
}
