import { DOMParser } from '@xmldom/xmldom';

export class MalformedXmlError extends Error {}

/** Parses strictly: any error or warning of the parser makes the document unreadable, nothing is printed. */
export function parseDocument(xml: string): Document {
  const fail = (message: string) => {
    throw new MalformedXmlError(message.replace(/^\[xmldom \w+\]\s*/, '').split('\n')[0]);
  };
  const doc = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(xml, 'text/xml');
  if (!doc?.documentElement) throw new MalformedXmlError('no root element');
  return doc as unknown as Document;
}

export function childElements(parent: Node): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

export function childrenNamed(parent: Node | undefined, ns: string, localName: string): Element[] {
  return parent ? childElements(parent).filter((e) => e.namespaceURI === ns && e.localName === localName) : [];
}

/** The one child with this name; undefined when there is none or more than one (a check must not pick one of two). */
export function onlyChild(parent: Node | undefined, ns: string, localName: string): Element | undefined {
  const found = childrenNamed(parent, ns, localName);
  return found.length === 1 ? found[0] : undefined;
}

export function textOf(el: Element | undefined): string | undefined {
  return el?.textContent?.trim() ?? undefined;
}
