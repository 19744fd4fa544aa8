import { bypassesProxy } from './no-proxy';

const aeat = new URL('https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP');

test('NO_PROXY names hosts, their subdomains with or without a leading dot, addresses and ports', () => {
  expect(bypassesProxy(aeat, [])).toBe(false);
  expect(bypassesProxy(aeat, ['*'])).toBe(true);
  expect(bypassesProxy(aeat, ['agenciatributaria.gob.es'])).toBe(true);
  expect(bypassesProxy(aeat, ['.gob.es'])).toBe(true);
  expect(bypassesProxy(aeat, ['tributaria.gob.es', 'aeat.es'])).toBe(false);
  expect(bypassesProxy(aeat, ['www1.agenciatributaria.gob.es:443'])).toBe(true);
  expect(bypassesProxy(aeat, ['www1.agenciatributaria.gob.es:8443'])).toBe(false);
  expect(bypassesProxy(new URL('https://127.0.0.1:8443/x'), ['localhost', '127.0.0.1'])).toBe(true);
  expect(bypassesProxy(new URL('https://[::1]:8443/x'), ['::1'])).toBe(true);
  expect(bypassesProxy(new URL('https://[::1]:8443/x'), ['[::1]:8443'])).toBe(true);
});
