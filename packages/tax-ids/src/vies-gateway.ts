import type { Agent } from 'node:http';
import { authorityAgent, checkVatNumber, type ViesOutcome, type ViesVatNumber } from '@vf/authority-client';
import type { AppConfig } from '@vf/config';

/** Asks VIES about one EU VAT number, under the requester's own VAT number when one is given. */
export interface ViesGateway {
  ask(number: ViesVatNumber, requester?: ViesVatNumber): Promise<ViesOutcome>;
}

/** VIES as the configuration reaches it: through the egress proxy when there is one (VIES asks no client certificate). */
export function createViesGateway(vies: AppConfig['vies'], authority?: AppConfig['authority']): ViesGateway {
  const agent: Agent | undefined = vies.url.startsWith('https:') ? authorityAgent({ keepAlive: true }, authority?.egressProxy) : undefined;
  const platform = vies.requester && { countryCode: vies.requester.countryCode, vatNumber: vies.requester.number };
  return {
    ask(number, requester) {
      return checkVatNumber(number, {
        baseUrl: vies.url,
        agent,
        timeoutMs: Math.min(authority?.requestTimeoutMs ?? 30_000, 30_000),
        requester: requester ?? platform,
      });
    },
  };
}
