import { NS } from '@vf/xml';

/**
 * A message as nested objects, for tests that need what the service's model cannot express (any field of the
 * schemas, wrong values included). Keys are element names in document order; a key without a prefix takes its
 * parent's default (sum1, SuministroInformacion), "sum:" / "con:" name the SuministroLR / ConsultaLR elements.
 * An array repeats the element; undefined leaves it out.
 */
export type XmlContent = string | XmlTree | readonly (string | XmlTree)[];
export interface XmlTree {
  [name: string]: XmlContent | undefined;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function element(name: string, value: XmlContent): string {
  const qualified = name.includes(':') ? name : `sum1:${name}`;
  if (Array.isArray(value)) return value.map((item) => element(name, item as string | XmlTree)).join('');
  const content = typeof value === 'string' ? escape(value) : serializeTree(value as XmlTree);
  return `<${qualified}>${content}</${qualified}>`;
}

export function serializeTree(tree: XmlTree): string {
  return Object.entries(tree)
    .filter((entry): entry is [string, XmlContent] => entry[1] !== undefined)
    .map(([name, value]) => element(name, value))
    .join('');
}

/** A SOAP envelope around one operation, with the namespaces of AEAT's examples. */
export function soapEnvelope(operation: 'sum:RegFactuSistemaFacturacion' | 'con:ConsultaFactuSistemaFacturacion', body: XmlTree): string {
  return (
    `<soapenv:Envelope xmlns:soapenv="${NS.soapenv}" xmlns:sum="${NS.suministroLR}" xmlns:sum1="${NS.suministroInformacion}" ` +
    `xmlns:con="${NS.consultaLR}"><soapenv:Header/><soapenv:Body>${element(operation, body)}</soapenv:Body></soapenv:Envelope>`
  );
}
