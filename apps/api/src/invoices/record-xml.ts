import { rebuildChainRecord } from '@vf/chain';
import { buildRegFactuRequest } from '@vf/xml';
import type { ChainRecordWithMessage } from '@vf/db';

const RECORD_ELEMENT = /<(\w+):(RegistroAlta|RegistroAnulacion)\b[\s\S]*?<\/\1:\2>/g;

/**
 * The record's RegistroAlta / RegistroAnulacion element, cut out of a SOAP request (matched by RefExterna, our
 * record id) and made a standalone document by declaring on it the prefixes the envelope declared.
 */
export function recordElementIn(requestXml: string, recordId: string): string | undefined {
  for (const match of requestXml.matchAll(RECORD_ELEMENT)) {
    const [element, , name] = match;
    if (!element.includes(`RefExterna>${recordId}</`)) continue;
    // A record declares its own namespace since it is written standalone (buildRecordXml); older messages did not.
    const prefixes = new Set([...element.matchAll(/<\/?(\w+):/g)].map((m) => m[1]).filter((p) => !element.includes(`xmlns:${p}=`)));
    const declarations = [...prefixes].flatMap((p) => new RegExp(`xmlns:${p}="[^"]*"`).exec(requestXml)?.[0] ?? []);
    const nameEnd = element.indexOf(name) + name.length;
    const declared = declarations.map((d) => ` ${d}`).join('');
    return `<?xml version="1.0" encoding="UTF-8"?>\n${element.slice(0, nameEnd)}${declared}${element.slice(nameEnd)}`;
  }
  return undefined;
}

/**
 * A signed record: its signed bytes, exactly as every message carried them. Otherwise exactly as sent when a message
 * carried it; otherwise as it will be sent (before signing), rebuilt and proven against its huella.
 */
export function recordXml({ record, sentRequestXml, signedXml }: ChainRecordWithMessage): string {
  if (signedXml !== null) return signedXml;
  const sent = sentRequestXml ? recordElementIn(sentRequestXml, record.id) : undefined;
  if (sent) return sent;
  const request = buildRegFactuRequest({ obligado: { name: record.issuerName, nif: record.issuerNif }, incident: false }, [
    rebuildChainRecord(record),
  ]);
  const built = recordElementIn(request, record.id);
  if (!built) throw new Error(`record ${record.id} is missing from the request built for it`);
  return built;
}
