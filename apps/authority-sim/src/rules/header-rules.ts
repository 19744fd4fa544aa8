import { node, text, type XmlNode } from '@vf/xml';
import { blank, dateNumber, isNaturalPersonNif, isNif, isYesNo, NIF_SHAPE } from './formats';
import type { Finding, RuleContext } from './rule-context';
import { madridDateNumber } from '../spain-time';

// Cabecera of RegFactuSistemaFacturacion. Any error here rejects the whole message (SOAP Fault), including the
// codes of the record section that concern the header (errores.properties: "o de la petición completa si el
// error se produce en la cabecera").

const ALPHANUMERIC = /^[0-9A-Za-z]+$/;

/** Values of the header that do not have the form the schema gives them. Checked before the certificate. */
export function headerSyntaxError(cabecera: XmlNode): number | undefined {
  const obligado = node(cabecera, 'ObligadoEmision');
  const nif = obligado ? text(obligado, 'NIF') : undefined;
  if (nif !== undefined) {
    if (nif === '') return 1172;
    if (!NIF_SHAPE.test(nif)) return 4115;
    if (!isNif(nif)) return 4116;
  }
  const representative = node(cabecera, 'Representante');
  const representativeNif = representative ? text(representative, 'NIF') : undefined;
  if (representativeNif !== undefined && !isNif(representativeNif)) return 4117;
  const voluntary = node(cabecera, 'RemisionVoluntaria');
  if (voluntary) {
    const end = text(voluntary, 'FechaFinVeriFactu');
    if (end !== undefined && dateNumber(end) === undefined) return 4106;
    const incident = text(voluntary, 'Incidencia');
    if (incident !== undefined && !isYesNo(incident)) return 4121;
  }
  const requirement = node(cabecera, 'RemisionRequerimiento');
  if (requirement) {
    const ref = text(requirement, 'RefRequerimiento');
    if (ref !== undefined && !ALPHANUMERIC.test(ref)) return 4133;
    const end = text(requirement, 'FinRequerimiento');
    if (end !== undefined && !isYesNo(end)) return 4131;
  }
  return undefined;
}

/** Whether the authority issued this requerimiento reference to this taxpayer. */
export type IssuedRequirement = (nif: string, reference: string) => boolean;

/**
 * The header of a message to RequerimientoSOAP: no voluntary remission (4127), the reference present (4125) and
 * issued to this taxpayer (4122), FinRequerimiento present (4129). Its form (4131, 4133) is checked with the rest.
 */
function requirementHeaderError(cabecera: XmlNode, nif: string, issued: IssuedRequirement): Finding | undefined {
  if (node(cabecera, 'RemisionVoluntaria')) return { code: 4127 };
  const requirement = node(cabecera, 'RemisionRequerimiento');
  const reference = requirement ? text(requirement, 'RefRequerimiento') : undefined;
  if (!requirement || blank(reference)) return { code: 4125 };
  if (text(requirement, 'FinRequerimiento') === undefined) return { code: 4129 };
  if (!issued(nif, reference!)) return { code: 4122 };
  return undefined;
}

/**
 * What the authority checks in a header once it knows who sends: the census, the names, the end of VERI*FACTU
 * and requerimiento data sent to the VERI*FACTU endpoint (which has no requerimiento). `requirement`: the message went
 * to RequerimientoSOAP, whose header carries the requerimiento instead.
 */
export function headerContentError(cabecera: XmlNode, ctx: RuleContext, issued?: IssuedRequirement): Finding | undefined {
  const obligado = node(cabecera, 'ObligadoEmision') ?? {};
  const nif = text(obligado, 'NIF') ?? '';
  const name = text(obligado, 'NombreRazon');
  if (ctx.unknown.has(nif)) return { code: 4104, detail: `. NIF:${nif}. NOMBRE_RAZON:${name ?? ''}` };
  if (blank(name)) return { code: isNaturalPersonNif(nif) ? 1282 : 1215 };
  const representative = node(cabecera, 'Representante');
  if (representative && ctx.unknown.has(text(representative, 'NIF') ?? '')) return { code: 4105 };
  if (issued) return requirementHeaderError(cabecera, nif, issued);
  const end = text(node(cabecera, 'RemisionVoluntaria') ?? {}, 'FechaFinVeriFactu');
  if (end !== undefined) {
    // FechaFinVeriFactu must be 31-12 of this year or the last (AEAT Validaciones y errores v1.2.0 §3.1.1; error 4120).
    const year = Math.floor(madridDateNumber(ctx.now) / 10000);
    if (end !== `31-12-${year}` && end !== `31-12-${year - 1}`) return { code: 4120 };
  }
  const requirement = node(cabecera, 'RemisionRequerimiento');
  if (requirement) return { code: text(requirement, 'FinRequerimiento') !== undefined ? 4130 : 4126 };
  return undefined;
}
