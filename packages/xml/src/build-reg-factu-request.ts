import type {
  CancellationRecord,
  ChainLink,
  InvoiceId,
  RecordLine,
  RecordRecipient,
  RegistrationFlags,
  RegistrationRecord,
  SistemaInformatico,
} from '@vf/core';
import type { ChainRecord, RecordData, SubmissionHeader } from './types';
import { serializeCanonical } from './canonical-xml';
import { child, optional, PREFIX_NS, serialize, soapEnvelope, type Prefix, type XmlElement } from './xml-writer';
import { node, nodes, requiredNode, requiredText, text, XmlFormatError, type XmlNode } from './xml-reader';

export function writeHeader(parent: XmlElement, p: 'sum1' | 'tik', header: SubmissionHeader): void {
  const obligado = child(parent, p, 'ObligadoEmision');
  child(obligado, p, 'NombreRazon', header.obligado.name);
  child(obligado, p, 'NIF', header.obligado.nif);
  if (header.incident) child(child(parent, p, 'RemisionVoluntaria'), p, 'Incidencia', 'S');
  if (header.requirement) {
    const requirement = child(parent, p, 'RemisionRequerimiento');
    child(requirement, p, 'RefRequerimiento', header.requirement.reference);
    child(requirement, p, 'FinRequerimiento', header.requirement.end ? 'S' : 'N');
  }
}

function writeAlta(parent: XmlElement, record: RegistrationRecord): void {
  const alta = child(parent, 'sum1', 'RegistroAlta');
  child(alta, 'sum1', 'IDVersion', '1.0');
  writeInvoiceId(child(alta, 'sum1', 'IDFactura'), 'sum1', record.id);
  optional(alta, 'sum1', 'RefExterna', record.externalRef);
  child(alta, 'sum1', 'NombreRazonEmisor', record.issuerName);
  optional(alta, 'sum1', 'Subsanacion', yes(record.flags?.subsanacion));
  optional(alta, 'sum1', 'RechazoPrevio', record.flags?.rechazoPrevio);
  writeRecordBody(alta, 'sum1', 'sum1', record);
}

function writeAnulacion(parent: XmlElement, record: CancellationRecord): void {
  const anulacion = child(parent, 'sum1', 'RegistroAnulacion');
  child(anulacion, 'sum1', 'IDVersion', '1.0');
  const id = child(anulacion, 'sum1', 'IDFactura');
  child(id, 'sum1', 'IDEmisorFacturaAnulada', record.id.issuerNif);
  child(id, 'sum1', 'NumSerieFacturaAnulada', record.id.invoiceNumber);
  child(id, 'sum1', 'FechaExpedicionFacturaAnulada', record.id.invoiceDate);
  optional(anulacion, 'sum1', 'RefExterna', record.externalRef);
  optional(anulacion, 'sum1', 'SinRegistroPrevio', yes(record.sinRegistroPrevio));
  optional(anulacion, 'sum1', 'RechazoPrevio', yes(record.rechazoPrevio));
  writeChainTail(anulacion, 'sum1', 'sum1', record);
}

/**
 * One record (RegistroAlta or RegistroAnulacion) as a standalone document in Canonical XML 1.0, its root declaring
 * the one namespace it uses: the form a record is signed in (@vf/signing's signRecord) and embedded, byte for byte,
 * in every message that carries it (buildRegFactuRequest).
 */
export function buildRecordXml(record: ChainRecord): string {
  const holder: XmlElement = { node: {}, children: [] };
  if (record.kind === 'cancellation') writeAnulacion(holder, record);
  else writeAlta(holder, record);
  return serializeCanonical(holder.children[0] as XmlElement['node'], { sum1: PREFIX_NS.sum1 });
}

/** A RegFactuSistemaFacturacion request around its records: `head`, each record between `open` and `close`, `tail`. */
export interface RegFactuRequestFrame {
  head: string;
  open: string;
  close: string;
  tail: string;
}

/**
 * What surrounds the records of a request with this header, for a sender that assembles the bytes itself (one buffer
 * of a 1,000-record message, never a second copy as a string).
 */
export function regFactuRequestFrame(header: SubmissionHeader): RegFactuRequestFrame {
  const { doc, body } = soapEnvelope('soapenv', ['sum', 'sum1'], { header: true });
  const request = child(body, 'sum', 'RegFactuSistemaFacturacion');
  writeHeader(child(request, 'sum', 'Cabecera'), 'sum1', header);
  const envelope = serialize(doc);
  const end = envelope.lastIndexOf(REQUEST_END);
  return { head: envelope.slice(0, end), open: REGISTRO_START, close: REGISTRO_END, tail: envelope.slice(end) };
}

/**
 * A complete RegFactuSistemaFacturacion SOAP request: one taxpayer, altas and anulaciones in the given (chain) order.
 * Each record is given as written by buildRecordXml, signed or not, and goes into the message byte for byte: a
 * signature over the standalone record (URI="") holds only on those exact bytes. The record's root declares its own
 * namespace, so it reads the same inside the envelope as on its own.
 */
export function buildRegFactuRequest(header: SubmissionHeader, records: (ChainRecord | string)[]): string {
  const frame = regFactuRequestFrame(header);
  const parts = [frame.head];
  for (const record of records) parts.push(frame.open, typeof record === 'string' ? record : buildRecordXml(record), frame.close);
  parts.push(frame.tail);
  return parts.join('');
}

const REQUEST_END = '</sum:RegFactuSistemaFacturacion>';
const REGISTRO_START = '<sum:RegistroFactura>';
const REGISTRO_END = '</sum:RegistroFactura>';

// Shared by RegistroAlta (request) and DatosRegistroFacturacion (consulta answer): from TipoFactura to
// Huella both follow the same xs:sequence, so one writer keeps the element order in one place.

export function writeInvoiceId(parent: XmlElement, p: Prefix, id: InvoiceId): void {
  child(parent, p, 'IDEmisorFactura', id.issuerNif);
  child(parent, p, 'NumSerieFactura', id.invoiceNumber);
  child(parent, p, 'FechaExpedicionFactura', id.invoiceDate);
}

export function readInvoiceId(el: XmlNode): InvoiceId {
  return {
    issuerNif: requiredText(el, 'IDEmisorFactura'),
    invoiceNumber: requiredText(el, 'NumSerieFactura'),
    invoiceDate: requiredText(el, 'FechaExpedicionFactura'),
  };
}

/** A PersonaFisicaJuridicaType element (IDDestinatario, Tercero): NombreRazon, then NIF or IDOtro. */
function writeParty(parent: XmlElement, own: Prefix, p: Prefix, name: string, recipient: RecordRecipient): void {
  const el = child(parent, own, name);
  child(el, p, 'NombreRazon', recipient.name);
  if ('nif' in recipient) {
    child(el, p, 'NIF', recipient.nif);
  } else {
    const other = child(el, p, 'IDOtro');
    optional(other, p, 'CodigoPais', recipient.country);
    child(other, p, 'IDType', recipient.idType);
    child(other, p, 'ID', recipient.id);
  }
}

function readParty(el: XmlNode): RecordRecipient {
  const name = requiredText(el, 'NombreRazon');
  const nif = text(el, 'NIF');
  if (nif !== undefined) return { name, nif };
  const other = requiredNode(el, 'IDOtro');
  const country = text(other, 'CodigoPais');
  return {
    name,
    ...(country !== undefined ? { country } : {}),
    idType: requiredText(other, 'IDType') as Extract<RecordRecipient, { idType: string }>['idType'],
    id: requiredText(other, 'ID'),
  };
}

function writeLine(parent: XmlElement, p: Prefix, line: RecordLine): void {
  const el = child(parent, p, 'DetalleDesglose');
  child(el, p, 'Impuesto', line.tax);
  optional(el, p, 'ClaveRegimen', line.regime);
  if (line.qualification) child(el, p, 'CalificacionOperacion', line.qualification);
  else if (line.exemption) child(el, p, 'OperacionExenta', line.exemption);
  else throw new Error('a tax line needs a qualification or an exemption');
  optional(el, p, 'TipoImpositivo', line.rate);
  child(el, p, 'BaseImponibleOimporteNoSujeto', line.base);
  optional(el, p, 'BaseImponibleACoste', line.costBase);
  optional(el, p, 'CuotaRepercutida', line.taxAmount);
  optional(el, p, 'TipoRecargoEquivalencia', line.surchargeRate);
  optional(el, p, 'CuotaRecargoEquivalencia', line.surchargeAmount);
}

function readLine(el: XmlNode): RecordLine {
  const line: RecordLine = {
    // An absent Impuesto means IVA (list L1).
    tax: (text(el, 'Impuesto') ?? '01') as RecordLine['tax'],
    base: requiredText(el, 'BaseImponibleOimporteNoSujeto'),
  };
  const assign = <K extends keyof RecordLine>(key: K, value: string | undefined) => {
    if (value !== undefined) line[key] = value as RecordLine[K];
  };
  assign('regime', text(el, 'ClaveRegimen'));
  assign('qualification', text(el, 'CalificacionOperacion'));
  assign('exemption', text(el, 'OperacionExenta'));
  assign('rate', text(el, 'TipoImpositivo'));
  assign('costBase', text(el, 'BaseImponibleACoste'));
  assign('taxAmount', text(el, 'CuotaRepercutida'));
  assign('surchargeRate', text(el, 'TipoRecargoEquivalencia'));
  assign('surchargeAmount', text(el, 'CuotaRecargoEquivalencia'));
  if (!line.qualification && !line.exemption) throw new XmlFormatError('DetalleDesglose without CalificacionOperacion or OperacionExenta');
  return line;
}

export function writeSystem(parent: XmlElement, own: Prefix, p: Prefix, system: SistemaInformatico): void {
  const el = child(parent, own, 'SistemaInformatico');
  child(el, p, 'NombreRazon', system.NombreRazon);
  child(el, p, 'NIF', system.NIF);
  child(el, p, 'NombreSistemaInformatico', system.NombreSistemaInformatico);
  child(el, p, 'IdSistemaInformatico', system.IdSistemaInformatico);
  child(el, p, 'Version', system.Version);
  child(el, p, 'NumeroInstalacion', system.NumeroInstalacion);
  child(el, p, 'TipoUsoPosibleSoloVerifactu', system.TipoUsoPosibleSoloVerifactu);
  child(el, p, 'TipoUsoPosibleMultiOT', system.TipoUsoPosibleMultiOT);
  child(el, p, 'IndicadorMultiplesOT', system.IndicadorMultiplesOT);
}

/** The SistemaInformatico block of a record, which every alta and anulación carries. */
export function readSystemOf(record: XmlNode): SistemaInformatico {
  return readSystem(requiredNode(record, 'SistemaInformatico'));
}

function readSystem(el: XmlNode): SistemaInformatico {
  const nif = text(el, 'NIF');
  // The model only knows producers identified by NIF; IDOtro producers keep their ID here.
  const otherId = node(el, 'IDOtro');
  return {
    NombreRazon: requiredText(el, 'NombreRazon'),
    NIF: nif ?? (otherId ? requiredText(otherId, 'ID') : ''),
    NombreSistemaInformatico: requiredText(el, 'NombreSistemaInformatico'),
    IdSistemaInformatico: requiredText(el, 'IdSistemaInformatico'),
    Version: requiredText(el, 'Version'),
    NumeroInstalacion: requiredText(el, 'NumeroInstalacion'),
    TipoUsoPosibleSoloVerifactu: requiredText(el, 'TipoUsoPosibleSoloVerifactu') as SistemaInformatico['TipoUsoPosibleSoloVerifactu'],
    TipoUsoPosibleMultiOT: requiredText(el, 'TipoUsoPosibleMultiOT') as SistemaInformatico['TipoUsoPosibleMultiOT'],
    IndicadorMultiplesOT: requiredText(el, 'IndicadorMultiplesOT') as SistemaInformatico['IndicadorMultiplesOT'],
  };
}

/** Encadenamiento: RegistroAnterior, or PrimerRegistro = S for the first record of a chain. */
export function writeChain(el: XmlElement, own: Prefix, typed: Prefix, previous: ChainLink | undefined): void {
  const chain = child(el, own, 'Encadenamiento');
  if (previous) {
    const anterior = child(chain, own, 'RegistroAnterior');
    writeInvoiceId(anterior, typed, previous);
    child(anterior, typed, 'Huella', previous.hash);
  } else {
    child(chain, own, 'PrimerRegistro', 'S');
  }
}

export function readChain(el: XmlNode): ChainLink | undefined {
  const previous = node(node(el, 'Encadenamiento') ?? {}, 'RegistroAnterior');
  return previous ? { ...readInvoiceId(previous), hash: requiredText(previous, 'Huella') } : undefined;
}

/** The S/N literal of an optional flag: only S is written, as absent and N mean the same to the authority. */
export function yes(flag: boolean | undefined): 'S' | undefined {
  return flag ? 'S' : undefined;
}

/**
 * TipoFactura … Huella of a RegistroAlta, or of a consulta's DatosRegistroFacturacion, in schema order.
 * `own` is the namespace prefix of the containing type's elements (and of its anonymous sub-types);
 * `typed` that of elements inside SuministroInformacion types. Both are sum1 in a request; in a consulta
 * answer the containing type lives in RespuestaConsultaLR.xsd. Absent values are not written (a request's
 * record has every mandatory one); the chain is written for any record that has a huella.
 */
export function writeRecordBody(el: XmlElement, own: Prefix, typed: Prefix, record: RecordData): void {
  optional(el, own, 'TipoFactura', record.invoiceType);
  optional(el, own, 'TipoRectificativa', record.rectificationType);
  writeReferences(el, own, typed, 'FacturasRectificadas', 'IDFacturaRectificada', record.rectifiedInvoices);
  writeReferences(el, own, typed, 'FacturasSustituidas', 'IDFacturaSustituida', record.substitutedInvoices);
  if (record.rectificationAmounts) {
    const amounts = child(el, own, 'ImporteRectificacion');
    child(amounts, typed, 'BaseRectificada', record.rectificationAmounts.base);
    child(amounts, typed, 'CuotaRectificada', record.rectificationAmounts.tax);
    optional(amounts, typed, 'CuotaRecargoRectificado', record.rectificationAmounts.surcharge);
  }
  optional(el, own, 'FechaOperacion', record.operationDate);
  optional(el, own, 'DescripcionOperacion', record.description);
  optional(el, own, 'FacturaSimplificadaArt7273', yes(record.simplifiedArt7273));
  optional(el, own, 'FacturaSinIdentifDestinatarioArt61d', yes(record.withoutRecipientArt61d));
  if (record.macrodato) child(el, own, 'Macrodato', 'S');
  optional(el, own, 'EmitidaPorTerceroODestinatario', record.issuedBy);
  if (record.thirdParty) writeParty(el, own, typed, 'Tercero', record.thirdParty);
  if (record.recipients?.length) {
    const recipients = child(el, own, 'Destinatarios');
    for (const recipient of record.recipients) writeParty(recipients, own, typed, 'IDDestinatario', recipient);
  }
  optional(el, own, 'Cupon', yes(record.coupon));
  if (record.lines) {
    const breakdown = child(el, own, 'Desglose');
    for (const line of record.lines) writeLine(breakdown, typed, line);
  }
  optional(el, own, 'CuotaTotal', record.totalTax);
  optional(el, own, 'ImporteTotal', record.total);
  writeChainTail(el, own, typed, record);
}

function writeReferences(el: XmlElement, own: Prefix, typed: Prefix, block: string, item: string, ids: InvoiceId[] | undefined): void {
  if (!ids?.length) return;
  const list = child(el, own, block);
  for (const id of ids) writeInvoiceId(child(list, own, item), typed, id);
}

/** Encadenamiento … Huella: the part an alta and an anulación share. */
export function writeChainTail(
  el: XmlElement,
  own: Prefix,
  typed: Prefix,
  record: Pick<RecordData, 'previous' | 'system' | 'generatedAt' | 'hash'>,
): void {
  if (record.hash !== undefined) writeChain(el, own, typed, record.previous);
  if (record.system) writeSystem(el, own, typed, record.system);
  optional(el, own, 'FechaHoraHusoGenRegistro', record.generatedAt);
  if (record.hash !== undefined) {
    child(el, own, 'TipoHuella', '01');
    child(el, own, 'Huella', record.hash);
  }
}

/**
 * The inverse of writeRecordBody plus the fields around it (RefExterna, NombreRazonEmisor). Lenient:
 * absent elements stay undefined (a consulta answer may omit any of them); callers that need a complete
 * record check with completeRecord.
 */
export function readRecordData(el: XmlNode): RecordData {
  const data: RecordData = {};
  const set = <K extends keyof RecordData>(key: K, value: RecordData[K] | undefined) => {
    if (value !== undefined) data[key] = value;
  };
  set('issuerName', text(el, 'NombreRazonEmisor'));
  set('externalRef', text(el, 'RefExterna'));
  set('flags', readAltaFlags(el));
  if (text(el, 'SinRegistroPrevio') === 'S') data.sinRegistroPrevio = true;
  set('invoiceType', text(el, 'TipoFactura') as RecordData['invoiceType']);
  set('rectificationType', text(el, 'TipoRectificativa') as RecordData['rectificationType']);
  const rectified = node(el, 'FacturasRectificadas');
  if (rectified) data.rectifiedInvoices = nodes(rectified, 'IDFacturaRectificada').map(readInvoiceId);
  const substituted = node(el, 'FacturasSustituidas');
  if (substituted) data.substitutedInvoices = nodes(substituted, 'IDFacturaSustituida').map(readInvoiceId);
  const amounts = node(el, 'ImporteRectificacion');
  if (amounts) {
    const surcharge = text(amounts, 'CuotaRecargoRectificado');
    data.rectificationAmounts = {
      base: requiredText(amounts, 'BaseRectificada'),
      tax: requiredText(amounts, 'CuotaRectificada'),
      ...(surcharge !== undefined ? { surcharge } : {}),
    };
  }
  set('operationDate', text(el, 'FechaOperacion'));
  set('description', text(el, 'DescripcionOperacion'));
  set('simplifiedArt7273', flag(el, 'FacturaSimplificadaArt7273'));
  set('withoutRecipientArt61d', flag(el, 'FacturaSinIdentifDestinatarioArt61d'));
  set('macrodato', flag(el, 'Macrodato'));
  set('issuedBy', text(el, 'EmitidaPorTerceroODestinatario') as RecordData['issuedBy']);
  const third = node(el, 'Tercero');
  if (third) data.thirdParty = readParty(third);
  const recipients = node(el, 'Destinatarios');
  if (recipients) data.recipients = nodes(recipients, 'IDDestinatario').map(readParty);
  set('coupon', flag(el, 'Cupon'));
  const breakdown = node(el, 'Desglose');
  if (breakdown) data.lines = nodes(breakdown, 'DetalleDesglose').map(readLine);
  set('totalTax', text(el, 'CuotaTotal'));
  set('total', text(el, 'ImporteTotal'));
  set('previous', readChain(el));
  const system = node(el, 'SistemaInformatico');
  if (system) data.system = readSystem(system);
  set('generatedAt', text(el, 'FechaHoraHusoGenRegistro'));
  set('hash', text(el, 'Huella'));
  return data;
}

/** An optional S/N element as a boolean; undefined when absent. */
function flag(el: XmlNode, name: string): boolean | undefined {
  const value = text(el, name);
  return value === undefined ? undefined : value === 'S';
}

/**
 * Subsanacion/RechazoPrevio as the model keeps them: N and absent are the same to the authority. A RechazoPrevio
 * without Subsanacion=S is kept, so the receiver can refuse it (1153, 1161).
 */
function readAltaFlags(el: XmlNode): RegistrationFlags | undefined {
  const flags: RegistrationFlags = {};
  if (text(el, 'Subsanacion') === 'S') flags.subsanacion = true;
  const rejected = text(el, 'RechazoPrevio');
  if (rejected === 'S' || rejected === 'X') flags.rechazoPrevio = rejected;
  return Object.keys(flags).length ? flags : undefined;
}

const REQUIRED: (keyof RecordData)[] = [
  'issuerName',
  'invoiceType',
  'description',
  'lines',
  'totalTax',
  'total',
  'system',
  'generatedAt',
  'hash',
];

export function completeRecord(id: InvoiceId, data: RecordData): RegistrationRecord {
  const missing = REQUIRED.filter((key) => data[key] === undefined);
  if (missing.length) throw new XmlFormatError(`RegistroAlta ${id.invoiceNumber}: missing ${missing.join(', ')}`);
  const { sinRegistroPrevio: _notInAnAlta, ...alta } = data;
  return { id, ...alta } as RegistrationRecord;
}
