import { validateEuVatNumber } from '@vf/core';
import { node, nodes, text, type XmlNode } from '@vf/xml';
import { WITH_RECIPIENTS, WITHOUT_RECIPIENTS, type AltaFacts } from './alta-facts';
import { blank, isNaturalPersonNif, isNif, NIF_SHAPE } from './formats';
import { otherId } from './identity-syntax';
import type { RuleContext } from './rule-context';

// Destinatarios (AEAT Validaciones y errores v1.2.0 §3.1.3.10-3.1.3.13; NIF-IVA structures of its Nota 1), and the issuers of the invoices a
// record rectifies or substitutes (1154).

/** The country a NIF-IVA belongs to, from its prefix (Greece writes EL, Northern Ireland XI). */
function vatCountry(id: string): string {
  const prefix = id.slice(0, 2);
  return prefix === 'EL' ? 'GR' : prefix === 'XI' ? 'GB' : prefix;
}

/** NIF-IVA (IDType 02): the United Kingdom's prefixes by date (1254, 1255), the country's prefix (1122), shape (1103), VIES (1121). */
function vatNumberError(country: string | undefined, id: string, taxDate: number, ctx: RuleContext): number | undefined {
  const prefix = id.slice(0, 2);
  if (prefix === 'XI' && taxDate < 20210101) return 1254;
  if (prefix === 'GB' && taxDate >= 20210201) return 1255;
  const check = validateEuVatNumber(country ?? vatCountry(id), id);
  if (check.problem === 'prefix' || (country !== undefined && check.problem === 'country')) return 1122;
  if (!check.valid || check.normalized !== id) return 1103;
  if (ctx.unknown.has(id)) return 1121;
  return undefined;
}

function recipientError(recipient: XmlNode, alta: AltaFacts, ctx: RuleContext): number | undefined {
  const nif = text(recipient, 'NIF');
  if (nif !== undefined) {
    if (nif === ctx.headerNif || ctx.unknown.has(nif)) return 1193;
    if (blank(text(recipient, 'NombreRazon')) && isNaturalPersonNif(nif)) return 1283;
    return undefined;
  }
  const other = otherId(recipient)!;
  if (other.idType !== '02' && other.country === undefined) return 1111;
  if ((other.idType === '07' && other.country !== 'ES') || (other.country === 'ES' && other.idType !== '03' && other.idType !== '07')) {
    return 1126;
  }
  if (other.idType === '02') return vatNumberError(other.country, other.id, alta.taxDate, ctx);
  if (other.idType === '07') {
    // The current rules tell a value that is no NIF at all (1290) from a legal person's NIF (1131).
    if (ctx.ruleSet === 'current' && !(NIF_SHAPE.test(other.id) && isNif(other.id))) return 1290;
    if (!isNaturalPersonNif(other.id)) return 1131;
  }
  return undefined;
}

function typeAllows(recipient: XmlNode, type: string): boolean {
  const idType = otherId(recipient)?.idType;
  if (type === 'R3') return idType === undefined || idType === '07';
  if (type === 'R2') return idType === undefined || idType === '07' || idType === '02';
  return true;
}

export function recipientsError(alta: AltaFacts, ctx: RuleContext): number | undefined {
  const { recipients, type } = alta;
  // NIF-IVA on a type that takes no recipient is named before the recipients themselves (1156 before 1190).
  if (recipients.some((r) => otherId(r)?.idType === '02') && !WITH_RECIPIENTS.includes(type)) return 1156;
  if (WITH_RECIPIENTS.includes(type) && recipients.length === 0) return 1189;
  if (WITHOUT_RECIPIENTS.includes(type) && recipients.length > 0) return 1190;
  for (const recipient of recipients) {
    const code = recipientError(recipient, alta, ctx);
    if (code) return code;
  }
  if (!recipients.every((r) => typeAllows(r, type))) return type === 'R3' ? 1191 : 1192;
  return undefined;
}

/** 1154: the issuer of a rectified or substituted invoice must be in the census. */
export function referencedIssuerError(alta: AltaFacts, ctx: RuleContext): number | undefined {
  const referenced = [
    ...nodes(node(alta.raw, 'FacturasRectificadas') ?? {}, 'IDFacturaRectificada'),
    ...nodes(node(alta.raw, 'FacturasSustituidas') ?? {}, 'IDFacturaSustituida'),
  ];
  return referenced.some((id) => ctx.unknown.has(text(id, 'IDEmisorFactura') ?? '')) ? 1154 : undefined;
}
