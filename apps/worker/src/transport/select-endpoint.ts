import type { AppConfig } from '@vf/config';

const VERIFACTU_PATH = '/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP';

// The VERI*FACTU ports of SistemaFacturacion.wsdl: personal/representative certificates vs seal certificates.
const AEAT_HOSTS = {
  sandbox: { personal: 'https://prewww1.aeat.es', seal: 'https://prewww10.aeat.es' },
  production: { personal: 'https://www1.agenciatributaria.gob.es', seal: 'https://www10.agenciatributaria.gob.es' },
} as const;

/**
 * Where a taxpayer's records go. In `aeat` mode the WSDL's real endpoints (test environment for sandbox taxpayers),
 * never the simulator; in `simulator` mode every taxpayer, sandbox or production, goes to the simulator.
 */
export function selectEndpoint(authority: AppConfig['authority'], isProduction: boolean): string {
  if (authority.mode === 'simulator') return authority.simulatorUrl;
  const hosts = isProduction ? AEAT_HOSTS.production : AEAT_HOSTS.sandbox;
  return `${authority.useSealHosts ? hosts.seal : hosts.personal}${VERIFACTU_PATH}`;
}
