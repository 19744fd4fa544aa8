import { node, text } from '@vf/xml';
import { RECTIFICATIVE, WITH_RECIPIENTS, WITHOUT_RECIPIENTS, type AltaFacts } from './alta-facts';
import { otherId } from './identity-syntax';
import type { RuleContext } from './rule-context';

// What each TipoFactura allows (AEAT Validaciones y errores v1.2.0 §3.1.3.4-3.1.3.9) and issuance by a third party or by the recipient.

export function invoiceTypeError(alta: AltaFacts): number | undefined {
  const { raw, type } = alta;
  const rectificative = RECTIFICATIVE.includes(type);
  if (rectificative && alta.rectificationType === undefined) return 1114;
  if (!rectificative && alta.rectificationType !== undefined) return 1115;
  if (node(raw, 'FacturasSustituidas') && type !== 'F3') return 1116;
  if (node(raw, 'FacturasRectificadas') && !rectificative) return 1117;
  const amounts = node(raw, 'ImporteRectificacion');
  if (alta.rectificationType === 'S' && !amounts) return 1118;
  if (alta.rectificationType !== 'S' && amounts) return 1119;
  if (text(raw, 'FacturaSimplificadaArt7273') === 'S' && !WITH_RECIPIENTS.includes(type)) return 1183;
  if (text(raw, 'FacturaSinIdentifDestinatarioArt61d') === 'S' && !WITHOUT_RECIPIENTS.includes(type)) return 1185;
  if (text(raw, 'Cupon') === 'S' && type !== 'R1' && type !== 'R5') return 1157;
  return undefined;
}

/** EmitidaPorTerceroODestinatario and Tercero (1155, 1159, 1186, 1158, 1211, 1232, 1188, 1109). */
export function thirdPartyError(alta: AltaFacts, ctx: RuleContext): number | undefined {
  const issuedBy = text(alta.raw, 'EmitidaPorTerceroODestinatario');
  const third = node(alta.raw, 'Tercero');
  if (third && issuedBy === undefined) return 1155;
  if (third && issuedBy === 'D') return 1159;
  if (issuedBy === 'T' && !third) return 1186;
  if (issuedBy === 'D' && alta.recipients.length === 0) return 1158;
  if (!third) return undefined;
  const other = otherId(third);
  if (other?.idType === '07') return 1211;
  if (other?.country === 'ES' && other.idType !== '03') return 1232;
  const nif = text(third, 'NIF');
  if (nif === ctx.headerNif) return 1188;
  if (nif !== undefined && ctx.unknown.has(nif)) return 1109;
  return undefined;
}
