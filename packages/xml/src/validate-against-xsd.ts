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
  return (await validateEachAgainstXsd([xml], which))[0];
}

/**
 * validateAgainstXsd for many envelopes at once, each with its own result. One libxml2 run reads the schemas once
 * for all of them: reading them is most of the cost of checking one message.
 */
export async function validateEachAgainstXsd(xmls: string[], which: XsdTarget): Promise<{ valid: boolean; errors: string[] }[]> {
  const results = xmls.map(() => ({ valid: true, errors: [] as string[] }));
  const payloads: { fileName: string; contents: string; index: number }[] = [];
  for (const [index, xml] of xmls.entries()) {
    try {
      payloads.push({ fileName: `payload-${index}.xml`, contents: (await extractSoapPayload(xml)).xml, index });
    } catch (error) {
      results[index] = { valid: false, errors: [(error as Error).message] };
    }
  }
  if (payloads.length === 0) return results;
  const schemas = loadSchemaFiles();
  const main = MAIN_SCHEMA[which];
  const outcome = await validateXML({
    xml: payloads.map(({ fileName, contents }) => ({ fileName, contents })),
    schema: [{ fileName: main, contents: schemas.get(main)! }],
    preload: [...schemas].filter(([name]) => name !== main).map(([fileName, contents]) => ({ fileName, contents })),
    // a 1000-record message is a few MB; libxml2 needs several times that while validating
    initialMemoryPages: 16 * MiB_PAGES,
    maxMemoryPages: 1024 * MiB_PAGES,
  });
  const byFile = new Map(payloads.map((p) => [p.fileName, results[p.index]]));
  for (const error of outcome.errors) {
    // An error names its file at the start ("payload-1.xml:3: …"); one that names none (libxml2 failing as a whole)
    // fails every payload. xmllint closes each failed file with "payload-1.xml fails to validate", which is no
    // reason of its own (and the library drops the last one), so it only marks the file.
    const summary = /^(\S+) fails to validate$/.exec(error.rawMessage.trim());
    const named = error.loc?.fileName ?? summary?.[1] ?? '';
    for (const result of byFile.has(named) ? [byFile.get(named)!] : [...byFile.values()]) {
      result.valid = false;
      if (!summary) result.errors.push(error.message);
    }
  }
  if (!outcome.valid && results.every((r) => r.valid)) {
    for (const result of byFile.values()) Object.assign(result, { valid: false, errors: ['the schema validation failed'] });
  }
  return results;
}
