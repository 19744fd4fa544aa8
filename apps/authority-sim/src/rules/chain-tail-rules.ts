import { node, text, type XmlNode } from '@vf/xml';
import { blank, dateNumber, isYesNo, longerThan, NIF_SHAPE } from './formats';
import { identityError, otherId } from './identity-syntax';
import { invoiceNumberError } from './record-id';
import type { Finding, RuleContext } from './rule-context';

// Encadenamiento … Huella: the part an alta and an anulación share (SuministroInformacion.xsd), with the
// authority's codes for the chain (1180, 1269, 1174, 1175, 1264, 1274), the system (1176-1179, 1212, 1213,
// 1220-1223, 1226), the generation time (1244, 1268) and the huella (1247, 1262, 1263).

const SYSTEM_ID = /^[A-Z0-9]{2}$/;
const ALPHANUMERIC = /^[0-9A-Za-z]*$/;
// Seconds and a zone, nothing else: fractions, "+02:00:00" and "+0200" are refused (1244); "Z" and "+00:00" are
// accepted and hashed as written (observed on the authority's pre-production service).
const GENERATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;
/** Shorter than this cannot hold a date and a time: a length error rather than a format one. */
const GENERATED_AT_MIN_LENGTH = 19;

function chainError(record: XmlNode, ctx: RuleContext): Finding | number | undefined {
  const chain = node(record, 'Encadenamiento');
  if (!chain) return undefined;
  const first = text(chain, 'PrimerRegistro');
  const previous = node(chain, 'RegistroAnterior');
  if ((first === undefined) === (previous === undefined)) return 1180;
  if (first !== undefined) return first.length !== 1 ? 1264 : first !== 'S' ? 1274 : undefined;
  const issuer = text(previous!, 'IDEmisorFactura');
  const number = text(previous!, 'NumSerieFactura');
  const date = text(previous!, 'FechaExpedicionFactura');
  const hash = text(previous!, 'Huella');
  if ([issuer, number, date, hash].some(blank) || !NIF_SHAPE.test(issuer!)) return 1269;
  if (dateNumber(date) === undefined) return 1174;
  if (invoiceNumberError(number!, 'NumSerieFactura', ctx)) return 1175;
  if (ctx.ruleSet === 'current' && !ALPHANUMERIC.test(hash!)) return 1291;
  return undefined;
}

function systemError(record: XmlNode): number | undefined {
  const system = node(record, 'SistemaInformatico');
  if (!system) return undefined;
  const identity = identityError(system, 'system');
  if (identity) return identity;
  const name = text(system, 'NombreRazon');
  if (blank(name)) return 1179;
  const systemName = text(system, 'NombreSistemaInformatico');
  if (systemName !== undefined && (blank(systemName) || longerThan(systemName, 30))) return 1220;
  const id = text(system, 'IdSistemaInformatico');
  if (id !== undefined && !SYSTEM_ID.test(id)) return 1177;
  for (const [field, max] of [
    ['Version', 50],
    ['NumeroInstalacion', 100],
  ] as const) {
    const value = text(system, field);
    if (value !== undefined && (blank(value) || longerThan(value, max))) return 1179;
  }
  for (const [field, code] of [
    ['TipoUsoPosibleSoloVerifactu', 1212],
    ['TipoUsoPosibleMultiOT', 1213],
    ['IndicadorMultiplesOT', 1226],
  ] as const) {
    const value = text(system, field);
    if (value !== undefined && !isYesNo(value)) return code;
  }
  return undefined;
}

/** FechaHoraHusoGenRegistro: 1268 (length), 1244 (format). */
export function generatedAtError(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value.length < GENERATED_AT_MIN_LENGTH) return 1268;
  if (!GENERATED_AT.test(value) || !Number.isFinite(Date.parse(value))) return 1244;
  return undefined;
}

function hashError(record: XmlNode, ctx: RuleContext): number | undefined {
  const type = text(record, 'TipoHuella');
  if (type !== undefined && type.length !== 2) return 1263;
  if (type !== undefined && type !== '01') return 1247;
  const hash = text(record, 'Huella');
  if (hash === undefined) return undefined;
  if (hash.length !== 64) return 1262;
  if (ctx.ruleSet === 'current' && !ALPHANUMERIC.test(hash)) return 1292;
  return undefined;
}

/** Form of the shared tail, in schema order. */
export function chainTailSyntaxError(record: XmlNode, ctx: RuleContext): Finding | number | undefined {
  return (
    chainError(record, ctx) ?? systemError(record) ?? generatedAtError(text(record, 'FechaHoraHusoGenRegistro')) ?? hashError(record, ctx)
  );
}

/**
 * What the tail must mean: the previous record is the same taxpayer's (a chain never crosses taxpayers, 1180),
 * the producer is in the census (1110) and a Spanish IDOtro is a passport or "no censado" (1234); under the
 * previous rules a previous huella equal to the record's own was a rejection (1278).
 */
export function chainTailContentError(record: XmlNode, issuerNif: string, ctx: RuleContext): number | undefined {
  const previous = node(node(record, 'Encadenamiento') ?? {}, 'RegistroAnterior');
  if (previous && text(previous, 'IDEmisorFactura') !== issuerNif) return 1180;
  const system = node(record, 'SistemaInformatico') ?? {};
  const producerNif = text(system, 'NIF');
  if (producerNif !== undefined && ctx.unknown.has(producerNif)) return 1110;
  const other = otherId(system);
  if (other?.country === 'ES' && other.idType !== '03' && other.idType !== '07') return 1234;
  if (ctx.ruleSet === 'previous' && previous && text(previous, 'Huella') === text(record, 'Huella')) return 1278;
  return undefined;
}
