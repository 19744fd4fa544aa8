import type { InvoiceId } from '@vf/core';
import { node, text, type OperationFlags, type ResponseLine, type XmlNode } from '@vf/xml';
import type { ChainFacts } from './registry';
import { answeredId, recordIdOf } from './rules/record-id';
import type { RecordKind } from './rules/record-rules';

/** One RegistroFactura of a message as the handler works on it. */
export interface RecordItem {
  kind: RecordKind;
  /** The RegistroAlta or RegistroAnulacion as parsed. */
  raw: XmlNode;
  id: InvoiceId;
  /** The record's values break the form the schema gives them: rejected with this code before anything else. */
  formError?: { code: number; detail?: string };
}

/** The Operacion of a response line echoes the flags the record carried, where they are values of their lists. */
function echoedFlags(item: RecordItem): OperationFlags | undefined {
  const flags: OperationFlags = {};
  const rejected = text(item.raw, 'RechazoPrevio');
  if (item.kind === 'anulacion') {
    if (rejected === 'S') flags.rechazoPrevio = 'S';
    if (text(item.raw, 'SinRegistroPrevio') === 'S') flags.sinRegistroPrevio = 'S';
  } else {
    if (text(item.raw, 'Subsanacion') === 'S') flags.subsanacion = 'S';
    if (rejected === 'S' || rejected === 'X') flags.rechazoPrevio = rejected;
  }
  return Object.keys(flags).length ? flags : undefined;
}

/** A response line for the record, Incorrecto until decided otherwise; RefExterna echoed when the schema allows it. */
export function responseLine(item: RecordItem): ResponseLine {
  const line: ResponseLine = { id: answeredId(item.id), operation: item.kind === 'anulacion' ? 'Anulacion' : 'Alta', state: 'Incorrecto' };
  const flags = echoedFlags(item);
  if (flags) line.flags = flags;
  const externalRef = text(item.raw, 'RefExterna');
  if (externalRef !== undefined && [...externalRef].length <= 60) line.externalRef = externalRef;
  return line;
}

/** What chain tracking needs, read leniently from a record that may not convert to a ChainRecord. */
export function chainFactsOf(item: RecordItem): ChainFacts {
  const system = node(item.raw, 'SistemaInformatico') ?? {};
  const previous = node(node(item.raw, 'Encadenamiento') ?? {}, 'RegistroAnterior');
  return {
    id: item.id,
    hash: text(item.raw, 'Huella') ?? '',
    ...(previous ? { previous: { ...recordIdOf({ IDFactura: previous }, 'alta'), hash: text(previous, 'Huella') ?? '' } } : {}),
    system: {
      NIF: text(system, 'NIF') ?? text(node(system, 'IDOtro') ?? {}, 'ID') ?? '',
      IdSistemaInformatico: text(system, 'IdSistemaInformatico') ?? '',
      NumeroInstalacion: text(system, 'NumeroInstalacion') ?? '',
    },
  };
}
