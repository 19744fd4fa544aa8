import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { NS } from './namespaces';

const ELEMENT_NODE = 1;

function element(b: XMLBuilder): Element {
  return b.node as unknown as Element;
}

function childElements(parent: XMLBuilder): XMLBuilder[] {
  const out: XMLBuilder[] = [];
  parent.each((child) => {
    if (element(child).nodeType === ELEMENT_NODE) out.push(child);
  });
  return out;
}

/**
 * The single element inside soapenv:Body, serialised as a standalone document (namespace
 * declarations carried over), for schema validation. Throws when the text is not a SOAP envelope.
 */
export function extractSoapPayload(xml: string): { localName: string; namespace: string | null; xml: string } {
  const envelope = create(xml).root();
  const root = element(envelope);
  if (root.localName !== 'Envelope' || root.namespaceURI !== NS.soapenv) {
    throw new Error(`not a SOAP 1.1 envelope (root element ${root.nodeName})`);
  }
  const body = childElements(envelope).find((b) => element(b).localName === 'Body' && element(b).namespaceURI === NS.soapenv);
  const payload = body ? childElements(body) : [];
  if (payload.length !== 1) throw new Error('the SOAP Body must hold exactly one element');
  const el = element(payload[0]);
  return { localName: el.localName, namespace: el.namespaceURI, xml: payload[0].toString() };
}
