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
 * declarations carried over), for schema validation. Rejects when the text is not a SOAP envelope. The DOM
 * (xmlbuilder2, about a megabyte of code) loads on first use: only the simulator and schema checks need it.
 */
export async function extractSoapPayload(xml: string): Promise<{ localName: string; namespace: string | null; xml: string }> {
  const { create } = await import('xmlbuilder2');
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
