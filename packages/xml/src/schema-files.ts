import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Folder of the vendored, unchanged AEAT schemas, WSDL and error list. */
export const SCHEMA_DIR = join(__dirname, '..', 'schemas');

export const SCHEMA_FILE_NAMES = [
  'SuministroLR.xsd',
  'SuministroInformacion.xsd',
  'RespuestaSuministro.xsd',
  'ConsultaLR.xsd',
  'RespuestaConsultaLR.xsd',
  'EventosSIF.xsd',
  'xmldsig-core-schema.xsd',
] as const;
export type SchemaFileName = (typeof SCHEMA_FILE_NAMES)[number];

const REMOTE_XMLDSIG = 'schemaLocation="http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd"';
const LOCAL_XMLDSIG = 'schemaLocation="xmldsig-core-schema.xsd"';

let cache: Map<SchemaFileName, string> | undefined;

// The schemas whose xmldsig import names the W3C's copy.
const IMPORTS_XMLDSIG = new Set<SchemaFileName>(['SuministroInformacion.xsd', 'EventosSIF.xsd']);

/**
 * The schema texts, read once. The xmldsig import of SuministroInformacion.xsd and EventosSIF.xsd is pointed at the local
 * copy here, in memory, so the vendored file stays byte-identical to AEAT's and nothing is fetched.
 */
export function loadSchemaFiles(): ReadonlyMap<SchemaFileName, string> {
  if (!cache) {
    cache = new Map();
    for (const name of SCHEMA_FILE_NAMES) {
      const text = readFileSync(join(SCHEMA_DIR, name), 'utf8');
      cache.set(name, IMPORTS_XMLDSIG.has(name) ? text.replace(REMOTE_XMLDSIG, LOCAL_XMLDSIG) : text);
    }
    for (const name of IMPORTS_XMLDSIG) {
      if (!cache.get(name)!.includes(LOCAL_XMLDSIG)) throw new Error(`${name} no longer imports xmldsig from the expected location`);
    }
  }
  return cache;
}
