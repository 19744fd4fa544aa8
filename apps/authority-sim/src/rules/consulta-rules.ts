import { node, text, type XmlNode } from '@vf/xml';
import { dateNumber, isNif, isYesNo, notOneOf } from './formats';
import type { RuleContext } from './rule-context';

// ConsultaFactuSistemaFacturacion (AEAT web-service description §11, ConsultaLR.xsd). A consulta has no answer line to carry an error:
// every code, of either section of the table, refuses the whole request (SOAP Fault).

const PERIODS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];

function party(cabecera: XmlNode): XmlNode | undefined {
  return node(cabecera, 'ObligadoEmision') ?? node(cabecera, 'Destinatario');
}

/** Values of the request without the form the schema gives them. */
export function consultaSyntaxError(payload: XmlNode): number | undefined {
  const cabecera = node(payload, 'Cabecera') ?? {};
  if (notOneOf(text(cabecera, 'IDVersion'), ['1.0'])) return 1251;
  const nif = text(party(cabecera) ?? {}, 'NIF');
  if (nif !== undefined && !isNif(nif)) return 4109;
  if (notOneOf(text(cabecera, 'IndicadorRepresentante'), ['S'])) return 1249;
  const filter = node(payload, 'FiltroConsulta') ?? {};
  if (notOneOf(text(node(filter, 'PeriodoImputacion') ?? {}, 'Periodo'), PERIODS)) return 1248;
  const dates = node(filter, 'FechaExpedicionFactura') ?? {};
  const range = node(dates, 'RangoFechaExpedicion') ?? {};
  for (const date of [text(dates, 'FechaExpedicionFactura'), text(range, 'Desde'), text(range, 'Hasta')]) {
    if (date !== undefined && dateNumber(date) === undefined) return 4106;
  }
  const extra = node(payload, 'DatosAdicionalesRespuesta') ?? {};
  const showName = text(extra, 'MostrarNombreRazonEmisor');
  if (showName !== undefined && !isYesNo(showName)) return 1270;
  const showSystem = text(extra, 'MostrarSistemaInformatico');
  if (showSystem !== undefined && !isYesNo(showSystem)) return 1271;
  return undefined;
}

/** What the request asks that the authority refuses once it knows who asks: census, combinations, date range. */
export function consultaContentError(payload: XmlNode, ctx: RuleContext): { code: number; detail?: string } | undefined {
  const cabecera = node(payload, 'Cabecera') ?? {};
  const obligado = node(cabecera, 'ObligadoEmision');
  const recipient = node(cabecera, 'Destinatario');
  if (obligado && ctx.unknown.has(text(obligado, 'NIF') ?? '')) {
    return { code: 4104, detail: `. NIF:${text(obligado, 'NIF')}. NOMBRE_RAZON:${text(obligado, 'NombreRazon') ?? ''}` };
  }
  if (recipient && ctx.unknown.has(text(recipient, 'NIF') ?? '')) return { code: 4107 };
  if (recipient && text(cabecera, 'IndicadorRepresentante') !== undefined) return { code: 1261 };
  if (recipient && text(node(payload, 'DatosAdicionalesRespuesta') ?? {}, 'MostrarSistemaInformatico') === 'S') return { code: 1272 };
  const range = node(node(node(payload, 'FiltroConsulta') ?? {}, 'FechaExpedicionFactura') ?? {}, 'RangoFechaExpedicion');
  const from = dateNumber(text(range ?? {}, 'Desde'));
  const to = dateNumber(text(range ?? {}, 'Hasta'));
  if (from !== undefined && to !== undefined && from > to) return { code: 1250 };
  return undefined;
}
