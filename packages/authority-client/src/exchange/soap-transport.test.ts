import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_DIR } from '@vf/xml';
import { SOAP_ACTIONS } from './soap-transport';

test("each operation goes with the SOAPAction of the vendored WSDL's bindings", () => {
  const wsdl = readFileSync(join(SCHEMA_DIR, 'SistemaFacturacion.wsdl'), 'utf8');
  const declared = [...wsdl.matchAll(/<wsdl:operation name="(\w+)">\s*<soap:operation soapAction="([^"]*)"/g)].map(([, op, action]) => [
    op,
    action,
  ]);
  expect(declared.length).toBeGreaterThan(0);
  for (const [operation, action] of declared) expect(SOAP_ACTIONS[operation as keyof typeof SOAP_ACTIONS]).toBe(action);
  expect(new Set(declared.map(([operation]) => operation))).toEqual(new Set(Object.keys(SOAP_ACTIONS)));
});
