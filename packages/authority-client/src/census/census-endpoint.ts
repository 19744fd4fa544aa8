import type { AppConfig } from '@vf/config';

const CENSUS_PATH = '/wlpl/BURT-JDIT/ws/VNifV2SOAP';

// The two ports of VNifV2.wsdl: www1 for personal and representative certificates, www10 for seal certificates.
const CENSUS_HOSTS = { personal: 'https://www1.agenciatributaria.gob.es', seal: 'https://www10.agenciatributaria.gob.es' } as const;

/**
 * Where a census check goes. The authority publishes no test service for it, so `aeat` mode always asks the real
 * census (whatever the taxpayer's environment); `simulator` mode asks the simulator, on the host of its VERI*FACTU
 * endpoint.
 */
export function selectCensusEndpoint(authority: AppConfig['authority']): string {
  if (authority.mode === 'simulator') return new URL(CENSUS_PATH, authority.simulatorUrl).toString();
  return `${authority.useSealHosts ? CENSUS_HOSTS.seal : CENSUS_HOSTS.personal}${CENSUS_PATH}`;
}
