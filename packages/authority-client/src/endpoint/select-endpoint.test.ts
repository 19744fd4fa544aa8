import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '@vf/config';
import { SCHEMA_DIR } from '@vf/xml';
import { selectEndpoint, selectRequirementEndpoint, selectScenarioEndpoint } from './select-endpoint';

const authority = (patch: Partial<AppConfig['authority']>): AppConfig['authority'] => ({
  mode: 'simulator',
  simulatorUrl: 'https://127.0.0.1:8443/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  simulatorCaPath: 'var/certs/ca.pem',
  scenarioSimulatorUrl: 'https://127.0.0.1:8443/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  useSealHosts: false,
  requestTimeoutMs: 60_000,
  ...patch,
});

test("simulator mode sends sandbox records to the simulator's service and production ones to its /production service", () => {
  const sim = authority({ mode: 'simulator', simulatorUrl: 'https://127.0.0.1:9999/wlpl/x', useSealHosts: true });
  expect(selectEndpoint(sim, false)).toBe('https://127.0.0.1:9999/wlpl/x');
  expect(selectEndpoint(sim, true)).toBe('https://127.0.0.1:9999/production/wlpl/x');
});

test('aeat mode uses the WSDL test endpoint for sandbox taxpayers and the production one otherwise', () => {
  const aeat = authority({ mode: 'aeat' });
  expect(selectEndpoint(aeat, false)).toBe('https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP');
  expect(selectEndpoint(aeat, true)).toBe('https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP');
});

test('aeat mode with seal certificates uses the seal hosts', () => {
  const seal = authority({ mode: 'aeat', useSealHosts: true });
  expect(selectEndpoint(seal, false)).toBe('https://prewww10.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP');
  expect(selectEndpoint(seal, true)).toBe('https://www10.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP');
});

test('the aeat endpoints are exactly the VERI*FACTU addresses of the vendored WSDL', () => {
  const wsdl = readFileSync(join(SCHEMA_DIR, 'SistemaFacturacion.wsdl'), 'utf8');
  const verifactuPorts = [...wsdl.matchAll(/location="([^"]+VerifactuSOAP)"/g)].map((m) => m[1]).sort();
  const ours = [false, true]
    .flatMap((seal) => [false, true].map((prod) => selectEndpoint(authority({ mode: 'aeat', useSealHosts: seal }), prod)))
    .sort();
  expect(ours).toEqual(verifactuPorts);
});

test('sandbox scenario records go to the scenario service of the simulator beside the service, in either mode', () => {
  for (const mode of ['simulator', 'aeat'] as const) {
    const config = authority({ mode, scenarioSimulatorUrl: 'https://authority-sim:8443/wlpl/x' });
    expect(selectScenarioEndpoint(config)).toBe('https://authority-sim:8443/scenarios/wlpl/x');
  }
});

test('a remission on request goes to the RequerimientoSOAP ports of the vendored WSDL, or to the simulator’s', () => {
  const wsdl = readFileSync(join(SCHEMA_DIR, 'SistemaFacturacion.wsdl'), 'utf8');
  const requirementPorts = [...wsdl.matchAll(/location="([^"]+RequerimientoSOAP)"/g)].map((m) => m[1]).sort();
  const ours = [false, true]
    .flatMap((seal) => [false, true].map((prod) => selectRequirementEndpoint(authority({ mode: 'aeat', useSealHosts: seal }), prod)))
    .sort();
  expect(ours).toEqual(requirementPorts);
  const sim = authority({ mode: 'simulator', simulatorUrl: 'https://127.0.0.1:9999/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP' });
  expect(selectRequirementEndpoint(sim, false)).toBe('https://127.0.0.1:9999/wlpl/TIKE-CONT/ws/SistemaFacturacion/RequerimientoSOAP');
  expect(selectRequirementEndpoint(sim, true)).toBe(
    'https://127.0.0.1:9999/production/wlpl/TIKE-CONT/ws/SistemaFacturacion/RequerimientoSOAP',
  );
});
