import type { AppConfig } from '@vf/config';

const VERIFACTU_PATH = '/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP';
/** sfRequerimiento: a NO VERI*FACTU system's kept records, sent on the authority's request. */
const REQUIREMENT_PATH = '/wlpl/TIKE-CONT/ws/SistemaFacturacion/RequerimientoSOAP';

// The VERI*FACTU and requerimiento ports of SistemaFacturacion.wsdl: personal/representative certificates vs seal certificates.
const AEAT_HOSTS = {
  sandbox: { personal: 'https://prewww1.aeat.es', seal: 'https://prewww10.aeat.es' },
  production: { personal: 'https://www1.agenciatributaria.gob.es', seal: 'https://www10.agenciatributaria.gob.es' },
} as const;

/** The simulator keeps the production registry apart from the sandbox one, under this path prefix. */
const SIMULATOR_PRODUCTION_PREFIX = '/production';
/** The simulator's service for sandbox scenario records: a registry of their own, apart from its sandbox one. */
const SIMULATOR_SCENARIO_PREFIX = '/scenarios';

function prefixed(url: string, prefix: string): string {
  const prefixedUrl = new URL(url);
  prefixedUrl.pathname = `${prefix}${prefixedUrl.pathname}`;
  return prefixedUrl.toString();
}

/**
 * Where a sandbox scenario record goes, in either mode: the scenario service of the simulator beside the service,
 * never the authority (docs/decisions/0040-scenario-chains-apart.md).
 */
export function selectScenarioEndpoint(authority: AppConfig['authority']): string {
  return prefixed(authority.scenarioSimulatorUrl, SIMULATOR_SCENARIO_PREFIX);
}

/**
 * Where a record goes. In `aeat` mode the WSDL's real endpoints (test environment for sandbox records), never the
 * simulator; in `simulator` mode the simulator, whose production service (its own registry, like the authority's)
 * answers under `/production` before the usual path.
 */
export function selectEndpoint(authority: AppConfig['authority'], isProduction: boolean): string {
  if (authority.mode === 'simulator') {
    return isProduction ? prefixed(authority.simulatorUrl, SIMULATOR_PRODUCTION_PREFIX) : authority.simulatorUrl;
  }
  const hosts = isProduction ? AEAT_HOSTS.production : AEAT_HOSTS.sandbox;
  return `${authority.useSealHosts ? hosts.seal : hosts.personal}${VERIFACTU_PATH}`;
}

/**
 * Where a remission on the authority's request goes (RequerimientoSOAP): the same hosts as voluntary sending, personal
 * or seal, sandbox or production; in `simulator` mode the simulator's service on the host of its VERI*FACTU endpoint.
 */
export function selectRequirementEndpoint(authority: AppConfig['authority'], isProduction: boolean): string {
  if (authority.mode === 'simulator') {
    const url = new URL(REQUIREMENT_PATH, authority.simulatorUrl);
    if (isProduction) url.pathname = `${SIMULATOR_PRODUCTION_PREFIX}${url.pathname}`;
    return url.toString();
  }
  const hosts = isProduction ? AEAT_HOSTS.production : AEAT_HOSTS.sandbox;
  return `${authority.useSealHosts ? hosts.seal : hosts.personal}${REQUIREMENT_PATH}`;
}
