import { validateXML } from 'xmllint-wasm';
import { loadSchemaFiles, type SchemaFileName } from './schema-files';
import { extractSoapPayload } from './soap-payload';

export type XsdTarget = 'request' | 'response' | 'consulta-request' | 'consulta-response';

const MAIN_SCHEMA: Record<XsdTarget, SchemaFileName> = {
  request: 'SuministroLR.xsd',
  response: 'RespuestaSuministro.xsd',
  'consulta-request': 'ConsultaLR.xsd',
  'consulta-response': 'RespuestaConsultaLR.xsd',
};

const MiB_PAGES = 16;

/**
 * Validates the payload of a SOAP envelope's Body against the vendored AEAT schemas (libxml2 in
 * WASM, no network). A text that is not a SOAP envelope is reported as invalid, not thrown.
 */
export async function validateAgainstXsd(xml: string, which: XsdTarget): Promise<{ valid: boolean; errors: string[] }> {
  let payload: string;
  try {
    payload = extractSoapPayload(xml).xml;
  } catch (error) {
    return { valid: false, errors: [(error as Error).message] };
  }
  const schemas = loadSchemaFiles();
  const main = MAIN_SCHEMA[which];
  const result = await validateXML({
    xml: [{ fileName: 'payload.xml', contents: payload }],
    schema: [{ fileName: main, contents: schemas.get(main)! }],
    preload: [...schemas].filter(([name]) => name !== main).map(([fileName, contents]) => ({ fileName, contents })),
    // a 1000-record message is a few MB; libxml2 needs several times that while validating
    initialMemoryPages: 16 * MiB_PAGES,
    maxMemoryPages: 1024 * MiB_PAGES,
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.message) };
}
