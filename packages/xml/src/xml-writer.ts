import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { NS } from './namespaces';

/** Prefixes as AEAT writes them (NOTES §3.3–3.4, §3.6–3.7). */
export const PREFIX_NS = {
  soapenv: NS.soapenv,
  env: NS.soapenv,
  sum: NS.suministroLR,
  sum1: NS.suministroInformacion,
  tikR: NS.respuestaSuministro,
  tik: NS.suministroInformacion,
  con: NS.consultaLR,
  tikLRRC: NS.respuestaConsultaLR,
} as const;
export type Prefix = keyof typeof PREFIX_NS;

const XMLNS = 'http://www.w3.org/2000/xmlns/';

/** A new SOAP envelope declaring the given prefixes on the root; returns the document and its Body. */
export function soapEnvelope(envPrefix: 'soapenv' | 'env', prefixes: Prefix[], opts: { header: boolean; bodyId?: string }) {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const envelope = doc.ele(NS.soapenv, `${envPrefix}:Envelope`);
  for (const prefix of prefixes) envelope.att(XMLNS, `xmlns:${prefix}`, PREFIX_NS[prefix]);
  if (opts.header) envelope.ele(NS.soapenv, `${envPrefix}:Header`);
  const body = envelope.ele(NS.soapenv, `${envPrefix}:Body`);
  if (opts.bodyId) body.att('Id', opts.bodyId);
  return { doc, body };
}

/** Appends `<prefix:name>` (with text when given); xmlbuilder2 escapes the text. */
export function child(parent: XMLBuilder, prefix: Prefix, name: string, text?: string): XMLBuilder {
  const element = parent.ele(PREFIX_NS[prefix], `${prefix}:${name}`);
  if (text !== undefined) element.txt(text);
  return element;
}

/** Appends the element only when the value is present. */
export function optional(parent: XMLBuilder, prefix: Prefix, name: string, text: string | undefined): void {
  if (text !== undefined) child(parent, prefix, name, text);
}

export function serialize(doc: XMLBuilder): string {
  return doc.end({ prettyPrint: false });
}
