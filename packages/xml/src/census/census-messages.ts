import { readSoapFault } from '../parse-soap-fault';
import type { SoapFault } from '../types';
import { child, serialize, soapEnvelope } from '../xml-writer';
import { nodes, soapBodyPayload, text, XmlFormatError } from '../xml-reader';

/** The most rows one VNifV2 message may hold (maxOccurs of VNifV2Ent and VNifV2Sal). */
export const CENSUS_MAX_ROWS = 10_000;

/** One row asked about: a NIF and the name ("Nombre o Razón Social") it is expected to go with. */
export interface CensusQuestion {
  nif: string;
  name: string;
}

/** One row of the census's answer, `Resultado` as the census wrote it. */
export interface CensusAnswerRow extends CensusQuestion {
  result: string;
}

export interface CensusReply {
  kind: 'census';
  rows: CensusAnswerRow[];
}

/** `VNifV2Ent`: the census check's request, 1 to 10,000 rows. */
export function buildCensusRequest(rows: readonly CensusQuestion[]): string {
  const { doc, body } = soapEnvelope('soapenv', ['vnif'], { header: true });
  const request = child(body, 'vnif', 'VNifV2Ent');
  for (const row of rows) {
    const el = child(request, 'vnif', 'Contribuyente');
    child(el, 'vnif', 'Nif', row.nif);
    child(el, 'vnif', 'Nombre', row.name);
  }
  return serialize(doc);
}

/** Reads a `VNifV2Ent` request (the simulator's side); throws XmlFormatError on anything else. */
export function parseCensusRequest(xml: string): CensusQuestion[] {
  const payload = soapBodyPayload(xml);
  if (payload.name !== 'VNifV2Ent') throw new XmlFormatError(`unexpected SOAP payload ${payload.name}`);
  return nodes(payload.node, 'Contribuyente').map((row) => ({ nif: text(row, 'Nif') ?? '', name: text(row, 'Nombre') ?? '' }));
}

/** `VNifV2Sal`: the census's answer. */
export function buildCensusResponse(rows: readonly CensusAnswerRow[]): string {
  const { doc, body } = soapEnvelope('env', ['vnifs'], { header: false });
  const answer = child(body, 'vnifs', 'VNifV2Sal');
  for (const row of rows) {
    const el = child(answer, 'vnifs', 'Contribuyente');
    child(el, 'vnifs', 'Nif', row.nif);
    child(el, 'vnifs', 'Nombre', row.name);
    child(el, 'vnifs', 'Resultado', row.result);
  }
  return serialize(doc);
}

/** Reads the census's answer (or a SOAP Fault), whatever the HTTP status. */
export function parseCensusReply(xml: string): CensusReply | SoapFault {
  const payload = soapBodyPayload(xml);
  if (payload.name === 'Fault') return readSoapFault(payload.node);
  if (payload.name !== 'VNifV2Sal') throw new XmlFormatError(`unexpected SOAP payload ${payload.name}`);
  const rows = nodes(payload.node, 'Contribuyente').map((row) => ({
    nif: text(row, 'Nif') ?? '',
    name: text(row, 'Nombre') ?? '',
    result: text(row, 'Resultado') ?? '',
  }));
  return { kind: 'census', rows };
}
