import type { ChainLink, CheckCounts, EventData, EventLink, InvoiceId, SifEvent } from '@vf/core';
import { serializeCanonical } from './canonical-xml';
import { child, optional, PREFIX_NS, type XmlElement } from './xml-writer';

const yesNo = (b: boolean) => (b ? 'S' : 'N');

function writeInvoice(parent: XmlElement, name: string, id: InvoiceId | ChainLink): void {
  const el = child(parent, 'sf', name);
  child(el, 'sf', 'IDEmisorFactura', id.issuerNif);
  child(el, 'sf', 'NumSerieFactura', id.invoiceNumber);
  child(el, 'sf', 'FechaExpedicionFactura', id.invoiceDate);
  if ('hash' in id) child(el, 'sf', 'Huella', id.hash);
}

function writeEventRef(parent: XmlElement, name: string, e: EventLink): void {
  const el = child(parent, 'sf', name);
  child(el, 'sf', 'TipoEvento', e.type);
  child(el, 'sf', 'FechaHoraHusoEvento', e.generatedAt);
  child(el, 'sf', 'HuellaEvento', e.hash);
}

// LanzamientoProcesoDeteccionAnomalias…: per kind of check, whether it ran and over how many records.
function writeCheck(parent: XmlElement, name: string, of: 'RegFacturacion' | 'RegEvento', counts: CheckCounts): void {
  const el = child(parent, 'sf', name);
  const noun = of === 'RegFacturacion' ? 'RegistrosFacturacion' : 'RegistrosEvento';
  const parts = [
    ['IntegridadHuellas', 'IntegridadHuellas', counts.hashes],
    ['IntegridadFirmas', 'IntegridadFirmas', counts.signatures],
    ['TrazabilidadCadena', 'TrazabilidadCadena', counts.chain],
    ['TrazabilidadFechas', 'TrazabilidadFechas', counts.dates],
  ] as const;
  for (const [done, counted, n] of parts) {
    child(el, 'sf', `RealizadoProcesoSobre${done}${of}`, yesNo(n !== undefined));
    optional(el, 'sf', `NumeroDe${noun}ProcesadosSobre${counted}`, n === undefined ? undefined : String(n));
  }
}

function writeData(parent: XmlElement, data: EventData): void {
  const el = child(parent, 'sf', 'DatosPropiosEvento');
  switch (data.kind) {
    case 'records_check':
      return writeCheck(el, 'LanzamientoProcesoDeteccionAnomaliasRegFacturacion', 'RegFacturacion', data.counts);
    case 'events_check':
      return writeCheck(el, 'LanzamientoProcesoDeteccionAnomaliasRegEvento', 'RegEvento', data.counts);
    case 'records_anomaly': {
      const a = child(el, 'sf', 'DeteccionAnomaliasRegFacturacion');
      child(a, 'sf', 'TipoAnomalia', data.anomaly);
      optional(a, 'sf', 'OtrosDatosAnomalia', data.detail?.slice(0, 100));
      if (data.record) writeInvoice(a, 'RegistroFacturacionAnomalo', data.record);
      return;
    }
    case 'events_anomaly': {
      const a = child(el, 'sf', 'DeteccionAnomaliasRegEvento');
      child(a, 'sf', 'TipoAnomalia', data.anomaly);
      optional(a, 'sf', 'OtrosDatosAnomalia', data.detail?.slice(0, 100));
      if (data.event) writeEventRef(a, 'RegEventoAnomalo', data.event);
      return;
    }
    case 'records_export': {
      const x = child(el, 'sf', 'ExportacionRegFacturacionPeriodo');
      child(x, 'sf', 'FechaHoraHusoInicioPeriodoExport', data.from);
      child(x, 'sf', 'FechaHoraHusoFinPeriodoExport', data.to);
      writeInvoice(x, 'RegistroFacturacionInicialPeriodo', data.totals.first);
      writeInvoice(x, 'RegistroFacturacionFinalPeriodo', data.totals.last);
      child(x, 'sf', 'NumeroDeRegistrosFacturacionAltaExportados', String(data.totals.altas));
      child(x, 'sf', 'SumaCuotaTotalAlta', data.totals.taxSum);
      child(x, 'sf', 'SumaImporteTotalAlta', data.totals.totalSum);
      child(x, 'sf', 'NumeroDeRegistrosFacturacionAnulacionExportados', String(data.totals.anulaciones));
      // An export never ends the keeping of what it exports: the service deletes nothing.
      child(x, 'sf', 'RegistrosFacturacionExportadosDejanDeConservarse', 'N');
      return;
    }
    case 'events_export': {
      const x = child(el, 'sf', 'ExportacionRegEventoPeriodo');
      child(x, 'sf', 'FechaHoraHusoInicioPeriodoExport', data.from);
      child(x, 'sf', 'FechaHoraHusoFinPeriodoExport', data.to);
      writeEventRef(x, 'RegistroEventoInicialPeriodo', data.first);
      writeEventRef(x, 'RegistroEventoFinalPeriodo', data.last);
      child(x, 'sf', 'NumeroDeRegEventoExportados', String(data.count));
      child(x, 'sf', 'RegEventoExportadosDejanDeConservarse', 'N');
      return;
    }
    case 'summary': {
      const r = child(el, 'sf', 'ResumenEventos');
      for (const { type, count } of data.counts) {
        const c = child(r, 'sf', 'TipoEvento');
        child(c, 'sf', 'TipoEvento', type);
        child(c, 'sf', 'NumeroDeEventos', String(count));
      }
      if (data.totals.first) writeInvoice(r, 'RegistroFacturacionInicialPeriodo', data.totals.first);
      if (data.totals.last) writeInvoice(r, 'RegistroFacturacionFinalPeriodo', data.totals.last);
      child(r, 'sf', 'NumeroDeRegistrosFacturacionAltaGenerados', String(data.totals.altas));
      child(r, 'sf', 'SumaCuotaTotalAlta', data.totals.taxSum);
      child(r, 'sf', 'SumaImporteTotalAlta', data.totals.totalSum);
      child(r, 'sf', 'NumeroDeRegistrosFacturacionAnulacionGenerados', String(data.totals.anulaciones));
      return;
    }
  }
}

/**
 * A RegistroEvento (EventosSIF.xsd) as a standalone element in Canonical XML 1.0, declaring its namespace, unsigned:
 * the form @vf/signing signs, its signature then placed as the last child of Evento.
 */
export function buildEventXml(e: SifEvent): string {
  const holder: XmlElement = { node: {}, children: [] };
  const root = child(holder, 'sf', 'RegistroEvento');
  child(root, 'sf', 'IDVersion', '1.0');
  const ev = child(root, 'sf', 'Evento');
  const s = child(ev, 'sf', 'SistemaInformatico');
  child(s, 'sf', 'NombreRazon', e.system.NombreRazon);
  child(s, 'sf', 'NIF', e.system.NIF);
  child(s, 'sf', 'NombreSistemaInformatico', e.system.NombreSistemaInformatico);
  child(s, 'sf', 'IdSistemaInformatico', e.system.IdSistemaInformatico);
  child(s, 'sf', 'Version', e.system.Version);
  child(s, 'sf', 'NumeroInstalacion', e.system.NumeroInstalacion);
  child(s, 'sf', 'TipoUsoPosibleSoloVerifactu', e.system.TipoUsoPosibleSoloVerifactu);
  child(s, 'sf', 'TipoUsoPosibleMultiOT', e.system.TipoUsoPosibleMultiOT);
  child(s, 'sf', 'IndicadorMultiplesOT', e.system.IndicadorMultiplesOT);
  const issuer = child(ev, 'sf', 'ObligadoEmision');
  child(issuer, 'sf', 'NombreRazon', e.issuer.name);
  child(issuer, 'sf', 'NIF', e.issuer.nif);
  child(ev, 'sf', 'FechaHoraHusoGenEvento', e.generatedAt);
  child(ev, 'sf', 'TipoEvento', e.type);
  if (e.data) writeData(ev, e.data);
  optional(ev, 'sf', 'OtrosDatosEvento', e.other?.slice(0, 100));
  const link = child(ev, 'sf', 'Encadenamiento');
  if (e.previous) {
    const prev = child(link, 'sf', 'EventoAnterior');
    child(prev, 'sf', 'TipoEvento', e.previous.type);
    child(prev, 'sf', 'FechaHoraHusoGenEvento', e.previous.generatedAt);
    child(prev, 'sf', 'HuellaEvento', e.previous.hash);
  } else {
    child(link, 'sf', 'PrimerEvento', 'S');
  }
  child(ev, 'sf', 'TipoHuella', '01');
  child(ev, 'sf', 'HuellaEvento', e.hash);
  return serializeCanonical(root.node, { sf: PREFIX_NS.sf });
}
