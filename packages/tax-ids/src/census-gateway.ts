import { readFileSync } from 'node:fs';
import { checkCensus, CertificateUnusableError, ClientCertificates, selectCensusEndpoint, type CensusOutcome } from '@vf/authority-client';
import type { AppConfig } from '@vf/config';
import type { SenderTaxpayer } from '@vf/db';
import type { CensusQuestion } from '@vf/xml';

/** Asks the authority's census, under the taxpayer's certificate when one is given, the platform's otherwise. */
export interface CensusGateway {
  ask(questions: readonly CensusQuestion[], taxpayer?: SenderTaxpayer): Promise<CensusOutcome[]>;
}

/** The simulator's CA, read when first needed: the simulator may write it after the API started. */
function serverCa(authority: AppConfig['authority']): string | undefined {
  if (authority.mode !== 'simulator' || !authority.simulatorCaPath) return undefined;
  try {
    return readFileSync(authority.simulatorCaPath, 'utf8');
  } catch (error) {
    throw new CertificateUnusableError('certificate_missing', `the simulator's CA cannot be read (${(error as Error).message})`);
  }
}

/** The census as the configuration reaches it: the simulator's in `simulator` mode, the authority's in `aeat` mode. */
export function createCensusGateway(
  authority: AppConfig['authority'],
  opts: { masterKey: Buffer; platformCertificate?: AppConfig['platformCertificate'] },
): CensusGateway {
  let certificates: ClientCertificates | undefined;
  const endpoint = selectCensusEndpoint(authority);
  return {
    ask(questions, taxpayer) {
      certificates ??= new ClientCertificates({
        masterKey: opts.masterKey,
        platformCertificate: opts.platformCertificate,
        serverCaPem: serverCa(authority),
        egressProxy: authority.egressProxy,
      });
      const certificate = taxpayer ? certificates.forTaxpayer(taxpayer) : certificates.forPlatform();
      return checkCensus(questions, { endpoint, agent: certificate.agent, timeoutMs: authority.requestTimeoutMs });
    },
  };
}
