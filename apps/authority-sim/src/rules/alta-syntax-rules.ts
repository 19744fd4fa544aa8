import { INVOICE_TYPES } from '@vf/core';
import { node, nodes, text, type XmlNode } from '@vf/xml';
import { chainTailSyntaxError } from './chain-tail-rules';
import { AMOUNT, dateNumber, isNif, isYesNo, LONG_AMOUNT, longerThan, notOneOf, RATE } from './formats';
import { identityError } from './identity-syntax';
import { recordIdError, recordIdOf } from './record-id';
import { firstFinding, firstOfEach, type Rule, type RuleContext } from './rule-context';

// The form of each value of a RegistroAlta, in schema order: a value the schema would refuse rejects its record
// with the authority's code for that field (1100 where the table has none more specific).

const INVOICE_TYPE_CODES = Object.keys(INVOICE_TYPES);
const TAXES = ['01', '02', '03', '05'];
/** IdOperacionesTrascendenciaTributariaType */
const REGIMES = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '14', '15', '17', '18', '19', '20', '21'];
const QUALIFICATIONS = ['S1', 'S2', 'N1', 'N2'];
const EXEMPTIONS = ['E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7', 'E8'];
const LINE_AMOUNTS = ['BaseImponibleOimporteNoSujeto', 'BaseImponibleACoste', 'CuotaRepercutida', 'CuotaRecargoEquivalencia'];

function tooLong(record: XmlNode, field: string, max: number): boolean {
  const value = text(record, field);
  return value !== undefined && longerThan(value, max);
}

function notAmount(value: string | undefined): boolean {
  return value !== undefined && !AMOUNT.test(value);
}

/** IDFactura of each rectified or substituted invoice: its values have no code of their own. */
function referencedInvoicesError(alta: XmlNode): number | undefined {
  const referenced = [
    ...nodes(node(alta, 'FacturasRectificadas') ?? {}, 'IDFacturaRectificada'),
    ...nodes(node(alta, 'FacturasSustituidas') ?? {}, 'IDFacturaSustituida'),
  ];
  const wrong = referenced.find(
    (id) =>
      !isNif(text(id, 'IDEmisorFactura') ?? '') ||
      longerThan(text(id, 'NumSerieFactura') ?? '', 60) ||
      dateNumber(text(id, 'FechaExpedicionFactura')) === undefined,
  );
  if (wrong) return 1100;
  const amounts = node(alta, 'ImporteRectificacion');
  if (amounts && ['BaseRectificada', 'CuotaRectificada', 'CuotaRecargoRectificado'].some((f) => notAmount(text(amounts, f)))) return 1100;
  return undefined;
}

function lineSyntaxError(line: XmlNode): number | undefined {
  if (notOneOf(text(line, 'Impuesto'), TAXES)) return 1218;
  if (notOneOf(text(line, 'ClaveRegimen'), REGIMES)) return 1246;
  const qualification = text(line, 'CalificacionOperacion');
  const exemption = text(line, 'OperacionExenta');
  if (notOneOf(qualification, QUALIFICATIONS)) return 1181;
  if (notOneOf(exemption, EXEMPTIONS)) return 1182;
  if (qualification === undefined && exemption === undefined) return 1195;
  if (qualification !== undefined && exemption !== undefined) return 1196;
  const rates = [text(line, 'TipoImpositivo'), text(line, 'TipoRecargoEquivalencia')];
  if (rates.some((r) => r !== undefined && !RATE.test(r))) return 1100;
  if (LINE_AMOUNTS.some((f) => notAmount(text(line, f)))) return 1100;
  return undefined;
}

function totalError(value: string | undefined, lengthCode: number): number | undefined {
  if (value === undefined) return undefined;
  if (LONG_AMOUNT.test(value)) return lengthCode;
  return AMOUNT.test(value) ? undefined : 1100;
}

const ALTA_SYNTAX: readonly Rule<XmlNode>[] = [
  (a) => (notOneOf(text(a, 'IDVersion'), ['1.0']) ? 1251 : undefined),
  (a, ctx) => recordIdError(recordIdOf(a, 'alta'), ctx),
  (a) => (tooLong(a, 'RefExterna', 60) ? 1253 : undefined),
  (a) => (tooLong(a, 'NombreRazonEmisor', 120) ? 1100 : undefined),
  (a) => (notOneOf(text(a, 'Subsanacion'), ['S', 'N']) || notOneOf(text(a, 'RechazoPrevio'), ['N', 'S', 'X']) ? 1171 : undefined),
  (a) => {
    const type = text(a, 'TipoFactura');
    if (type === undefined) return undefined;
    return type.length !== 2 ? 1265 : INVOICE_TYPE_CODES.includes(type) ? undefined : 1106;
  },
  (a) => (notOneOf(text(a, 'TipoRectificativa'), ['S', 'I']) ? 1107 : undefined),
  referencedInvoicesError,
  (a) => {
    const date = text(a, 'FechaOperacion');
    return date !== undefined && dateNumber(date) === undefined ? 1145 : undefined;
  },
  (a) => (tooLong(a, 'DescripcionOperacion', 500) ? 1100 : undefined),
  (a) => (text(a, 'FacturaSimplificadaArt7273') !== undefined && !isYesNo(text(a, 'FacturaSimplificadaArt7273')) ? 1136 : undefined),
  (a) =>
    text(a, 'FacturaSinIdentifDestinatarioArt61d') !== undefined && !isYesNo(text(a, 'FacturaSinIdentifDestinatarioArt61d'))
      ? 1184
      : undefined,
  (a) => (text(a, 'Macrodato') !== undefined && !isYesNo(text(a, 'Macrodato')) ? 1137 : undefined),
  (a) => (notOneOf(text(a, 'EmitidaPorTerceroODestinatario'), ['D', 'T']) ? 1151 : undefined),
  (a) => identityError(node(a, 'Tercero'), 'thirdParty'),
  (a) => firstOfEach(nodes(node(a, 'Destinatarios') ?? {}, 'IDDestinatario'), (r) => identityError(r, 'recipient')),
  (a) => (text(a, 'Cupon') !== undefined && !isYesNo(text(a, 'Cupon')) ? 1157 : undefined),
  (a) => firstOfEach(nodes(node(a, 'Desglose') ?? {}, 'DetalleDesglose'), lineSyntaxError),
  (a) => totalError(text(a, 'CuotaTotal'), 1266) ?? totalError(text(a, 'ImporteTotal'), 1267),
  (a, ctx) => chainTailSyntaxError(a, ctx),
  (a) => (tooLong(a, 'NumRegistroAcuerdoFacturacion', 15) || tooLong(a, 'IdAcuerdoSistemaInformatico', 16) ? 1100 : undefined),
];

/** The first value of the alta whose form is wrong (the record is then rejected without further checks). */
export function altaSyntaxError(alta: XmlNode, ctx: RuleContext) {
  return firstFinding(ALTA_SYNTAX, alta, ctx);
}
