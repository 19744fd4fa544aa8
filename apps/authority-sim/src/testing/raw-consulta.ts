import { madridInvoiceDate } from '../spain-time';
import { soapEnvelope, type XmlTree } from './xml-tree';

export interface RawConsulta {
  /** Query as the issuer (default) or as the recipient. */
  as?: 'obligado' | 'destinatario';
  nif: string;
  /** Cabecera fields after the party (IndicadorRepresentante), or a replacement IDVersion. */
  cabecera?: XmlTree;
  /** PeriodoImputacion: this month by default. */
  period?: { year: string; month: string };
  /** FiltroConsulta fields after PeriodoImputacion, as "con:" elements in schema order. */
  filter?: XmlTree;
  /** DatosAdicionalesRespuesta. */
  extra?: XmlTree;
}

/** ConsultaFactuSistemaFacturacion with any fields, wrong values included. */
export function consultaXml(q: RawConsulta): string {
  const [, month, year] = madridInvoiceDate(new Date()).split('-');
  const period = q.period ?? { year, month };
  return soapEnvelope('con:ConsultaFactuSistemaFacturacion', {
    'con:Cabecera': {
      IDVersion: '1.0',
      [q.as === 'destinatario' ? 'Destinatario' : 'ObligadoEmision']: { NombreRazon: `CONTRIBUYENTE ${q.nif}`, NIF: q.nif },
      ...q.cabecera,
    },
    'con:FiltroConsulta': { 'con:PeriodoImputacion': { Ejercicio: period.year, Periodo: period.month }, ...q.filter },
    ...(q.extra ? { 'con:DatosAdicionalesRespuesta': q.extra } : {}),
  });
}
