import type { AppConfig } from '@vf/config';
import { selectCensusEndpoint } from './census-endpoint';
import { readResultado } from './census-verdict';

const authority = (patch: Partial<AppConfig['authority']>): AppConfig['authority'] => ({
  mode: 'aeat',
  simulatorUrl: 'https://127.0.0.1:8443/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  simulatorCaPath: 'var/certs/ca.pem',
  scenarioSimulatorUrl: 'https://127.0.0.1:8443/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  useSealHosts: false,
  requestTimeoutMs: 60_000,
  ...patch,
});

test('the census check goes to www1 with personal certificates and www10 with seal ones; there is no test service', () => {
  expect(selectCensusEndpoint(authority({}))).toBe('https://www1.agenciatributaria.gob.es/wlpl/BURT-JDIT/ws/VNifV2SOAP');
  expect(selectCensusEndpoint(authority({ useSealHosts: true }))).toBe(
    'https://www10.agenciatributaria.gob.es/wlpl/BURT-JDIT/ws/VNifV2SOAP',
  );
});

test("simulator mode asks the simulator's census, on the host of its VERI*FACTU endpoint", () => {
  expect(selectCensusEndpoint(authority({ mode: 'simulator' }))).toBe('https://127.0.0.1:8443/wlpl/BURT-JDIT/ws/VNifV2SOAP');
});

test('reads each Resultado, whatever the spacing around its hyphen, and an unseen one as not processed', () => {
  expect(readResultado('IDENTIFICADO', 'X')).toEqual({ result: 'valid', detail: 'identified' });
  expect(readResultado('NO IDENTIFICADO - SIMILAR', ' EMPRESA SL ')).toEqual({
    result: 'invalid',
    detail: 'similar',
    censusName: 'EMPRESA SL',
  });
  expect(readResultado('NO IDENTIFICADO', 'X')).toEqual({ result: 'invalid', detail: 'not_identified' });
  expect(readResultado('IDENTIFICADO-BAJA', 'X')).toEqual({ result: 'invalid', detail: 'deregistered' });
  expect(readResultado('IDENTIFICADO-REVOCADO', 'X')).toEqual({ result: 'invalid', detail: 'revoked' });
  expect(readResultado('NO PROCESADO', 'X')).toEqual({ result: 'unknown', detail: 'not_processed' });
  expect(readResultado('ALGO NUEVO', 'X')).toEqual({ result: 'unknown', detail: 'not_processed' });
});
