import type { InvoiceId, RecordLine, RecordRecipient, RegistrationRecord, SistemaInformatico } from '@vf/core';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { RecordData } from './types';
import { child, optional, type Prefix } from './xml-writer';
import { node, nodes, requiredNode, requiredText, text, XmlFormatError, type XmlNode } from './xml-reader';

// Shared by RegistroAlta (request) and DatosRegistroFacturacion (consulta answer): from TipoFactura to
// Huella both follow the same xs:sequence, so one writer keeps the element order in one place.

export function writeInvoiceId(parent: XMLBuilder, p: Prefix, id: InvoiceId): void {
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

function writeRecipient(parent: XMLBuilder, own: Prefix, p: Prefix, recipient: RecordRecipient): void {
  const el = child(parent, own, 'IDDestinatario');
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

function readRecipient(el: XmlNode): RecordRecipient {
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

function writeLine(parent: XMLBuilder, p: Prefix, line: RecordLine): void {
  const el = child(parent, p, 'DetalleDesglose');
  child(el, p, 'Impuesto', line.tax);
  optional(el, p, 'ClaveRegimen', line.regime);
  if (line.qualification) child(el, p, 'CalificacionOperacion', line.qualification);
  else if (line.exemption) child(el, p, 'OperacionExenta', line.exemption);
  else throw new Error('a tax line needs a qualification or an exemption');
  optional(el, p, 'TipoImpositivo', line.rate);
  child(el, p, 'BaseImponibleOimporteNoSujeto', line.base);
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
  assign('taxAmount', text(el, 'CuotaRepercutida'));
  assign('surchargeRate', text(el, 'TipoRecargoEquivalencia'));
  assign('surchargeAmount', text(el, 'CuotaRecargoEquivalencia'));
  if (!line.qualification && !line.exemption) throw new XmlFormatError('DetalleDesglose without CalificacionOperacion or OperacionExenta');
  return line;
}

export function writeSystem(parent: XMLBuilder, own: Prefix, p: Prefix, system: SistemaInformatico): void {
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

/**
 * TipoFactura … Huella of a RegistroAlta, or of a consulta's DatosRegistroFacturacion, in schema order.
 * `own` is the namespace prefix of the containing type's elements (and of its anonymous sub-types);
 * `typed` that of elements inside SuministroInformacion types. Both are sum1 in a request; in a consulta
 * answer the containing type lives in RespuestaConsultaLR.xsd.
 */
export function writeRecordBody(
  el: XMLBuilder,
  own: Prefix,
  typed: Prefix,
  record: Omit<RegistrationRecord, 'system' | 'issuerName'> & { system?: SistemaInformatico },
): void {
  child(el, own, 'TipoFactura', record.invoiceType);
  optional(el, own, 'TipoRectificativa', record.rectificationType);
  if (record.rectifiedInvoices?.length) {
    const rectified = child(el, own, 'FacturasRectificadas');
    for (const id of record.rectifiedInvoices) writeInvoiceId(child(rectified, own, 'IDFacturaRectificada'), typed, id);
  }
  if (record.rectificationAmounts) {
    const amounts = child(el, own, 'ImporteRectificacion');
    child(amounts, typed, 'BaseRectificada', record.rectificationAmounts.base);
    child(amounts, typed, 'CuotaRectificada', record.rectificationAmounts.tax);
  }
  optional(el, own, 'FechaOperacion', record.operationDate);
  child(el, own, 'DescripcionOperacion', record.description);
  if (record.macrodato) child(el, own, 'Macrodato', 'S');
  if (record.recipients?.length) {
    const recipients = child(el, own, 'Destinatarios');
    for (const recipient of record.recipients) writeRecipient(recipients, own, typed, recipient);
  }
  const breakdown = child(el, own, 'Desglose');
  for (const line of record.lines) writeLine(breakdown, typed, line);
  child(el, own, 'CuotaTotal', record.totalTax);
  child(el, own, 'ImporteTotal', record.total);
  const chain = child(el, own, 'Encadenamiento');
  if (record.previous) {
    const previous = child(chain, own, 'RegistroAnterior');
    writeInvoiceId(previous, typed, record.previous);
    child(previous, typed, 'Huella', record.previous.hash);
  } else {
    child(chain, own, 'PrimerRegistro', 'S');
  }
  if (record.system) writeSystem(el, own, typed, record.system);
  child(el, own, 'FechaHoraHusoGenRegistro', record.generatedAt);
  child(el, own, 'TipoHuella', '01');
  child(el, own, 'Huella', record.hash);
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
  set('invoiceType', text(el, 'TipoFactura') as RecordData['invoiceType']);
  set('rectificationType', text(el, 'TipoRectificativa') as RecordData['rectificationType']);
  const rectified = node(el, 'FacturasRectificadas');
  if (rectified) data.rectifiedInvoices = nodes(rectified, 'IDFacturaRectificada').map(readInvoiceId);
  const amounts = node(el, 'ImporteRectificacion');
  if (amounts) data.rectificationAmounts = { base: requiredText(amounts, 'BaseRectificada'), tax: requiredText(amounts, 'CuotaRectificada') };
  set('operationDate', text(el, 'FechaOperacion'));
  set('description', text(el, 'DescripcionOperacion'));
  const macrodato = text(el, 'Macrodato');
  if (macrodato !== undefined) data.macrodato = macrodato === 'S';
  const recipients = node(el, 'Destinatarios');
  if (recipients) data.recipients = nodes(recipients, 'IDDestinatario').map(readRecipient);
  const breakdown = node(el, 'Desglose');
  if (breakdown) data.lines = nodes(breakdown, 'DetalleDesglose').map(readLine);
  set('totalTax', text(el, 'CuotaTotal'));
  set('total', text(el, 'ImporteTotal'));
  const previous = node(node(el, 'Encadenamiento') ?? {}, 'RegistroAnterior');
  if (previous) data.previous = { ...readInvoiceId(previous), hash: requiredText(previous, 'Huella') };
  const system = node(el, 'SistemaInformatico');
  if (system) data.system = readSystem(system);
  set('generatedAt', text(el, 'FechaHoraHusoGenRegistro'));
  set('hash', text(el, 'Huella'));
  return data;
}

const REQUIRED: (keyof RecordData)[] = ['issuerName', 'invoiceType', 'description', 'lines', 'totalTax', 'total', 'system', 'generatedAt', 'hash'];

export function completeRecord(id: InvoiceId, data: RecordData): RegistrationRecord {
  const missing = REQUIRED.filter((key) => data[key] === undefined);
  if (missing.length) throw new XmlFormatError(`RegistroAlta ${id.invoiceNumber}: missing ${missing.join(', ')}`);
  return { id, ...data } as RegistrationRecord;
}
