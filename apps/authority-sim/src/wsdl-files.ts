import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSchemaFiles, SCHEMA_DIR, type SchemaFileName } from '@vf/xml';
import { ENDPOINT_PATH } from './simulator-types';

const AEAT_ADDRESS = /location="https:\/\/[^"/]+\/wlpl\/TIKE-CONT\/ws\/SistemaFacturacion\/(VerifactuSOAP|RequerimientoSOAP)"/g;

/**
 * AEAT's WSDL with every soap:address pointing at the simulator, and the XSDs it imports (served as
 * loaded for validation, i.e. with xmldsig imported from beside them).
 */
export function staticFiles(origin: string): Map<string, string> {
  const wsdl = readFileSync(join(SCHEMA_DIR, 'SistemaFacturacion.wsdl'), 'utf8').replace(AEAT_ADDRESS, (_match, service: string) =>
    service === 'VerifactuSOAP'
      ? `location="${origin}${ENDPOINT_PATH}"`
      : `location="${origin}/wlpl/TIKE-CONT/ws/SistemaFacturacion/${service}"`,
  );
  const files = new Map<string, string>([['SistemaFacturacion.wsdl', wsdl]]);
  for (const [name, text] of loadSchemaFiles() as ReadonlyMap<SchemaFileName, string>) files.set(name, text);
  return files;
}
