import { readFileSync } from 'node:fs';
import type { AppConfig } from '@vf/config';
import { loadOnce } from '../shared/load-once';

/** Whose certificate may sign a taxpayer's records: the certificate each record is sent with. */
export interface SignerPolicy {
  /** Why a certificate may not sign the records of `issuerNif`; undefined when it may. */
  problem(certificatePem: string, subject: string, issuerNif: string): Promise<string | undefined>;
}

const MAX_REMEMBERED = 1_000;

// node-forge and the PKCS#12 reader (over a megabyte of live heap) load with the first signature checked.
const certificateTools = loadOnce(async () => {
  const [{ default: forge }, { certificateNif, readPkcs12 }] = await Promise.all([import('node-forge'), import('@vf/certificates')]);
  return { forge, certificateNif, readPkcs12 };
});

/**
 * A record is sent, so signed, with the taxpayer's own certificate (whichever of its certificates held then: its
 * NIF is the issuer's) or, in social-collaborator mode, with the platform's (PLATFORM_CERT_PATH). Any other
 * certificate is foreign. Which authority issued it is not checked here: the service holds no list of qualified CAs.
 */
export function createSignerPolicy(platformCertificate: AppConfig['platformCertificate']): SignerPolicy {
  const platformNif = loadOnce(async () => {
    if (!platformCertificate) return undefined;
    const { readPkcs12 } = await certificateTools();
    try {
      return readPkcs12(readFileSync(platformCertificate.path), platformCertificate.password).nif;
    } catch {
      return undefined;
    }
  });
  // A chain's records share one or two certificates: each is read once.
  const nifs = new Map<string, string | undefined>();
  const nifOf = async (pem: string) => {
    if (!nifs.has(pem)) {
      const { forge, certificateNif } = await certificateTools();
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
      const nif = await nifOf(certificatePem);
      if (nif === issuerNif || (nif !== undefined && nif === (await platformNif()))) return undefined;
      return `it was signed with a foreign certificate (${subject}, NIF ${nif ?? 'unknown'}): neither the taxpayer's nor the platform's`;
    },
  };
}
