import type { InvoiceId } from '@vf/core';
import { node, text, type XmlNode } from '@vf/xml';
import { DATE, dateNumber, FORBIDDEN_CHARACTERS, isNif, longerThan, NIF_SHAPE, PRINTABLE_ASCII } from './formats';
import type { Finding, RuleContext } from './rule-context';

const NUM_SERIE_MAX = 60;

/** IDFactura of an alta, or of the invoice an anulación cancels, as sent (missing parts empty). */
export function recordIdOf(record: XmlNode, kind: 'alta' | 'anulacion'): InvoiceId {
  const id = node(record, 'IDFactura') ?? {};
  const suffix = kind === 'anulacion' ? 'Anulada' : '';
  return {
    issuerNif: text(id, `IDEmisorFactura${suffix}`) ?? '',
    invoiceNumber: text(id, `NumSerieFactura${suffix}`) ?? '',
    invoiceDate: text(id, `FechaExpedicionFactura${suffix}`) ?? '',
  };
}

/**
 * The identifier part a response line could not repeat within RespuestaSuministro.xsd (NIF of 9 characters,
 * a non-empty number, a dd-mm-yyyy shaped date): such a record fails the schema of the whole message.
 */
export function unanswerableIdField(id: InvoiceId): string | undefined {
  if (id.issuerNif.length !== 9) return 'IDEmisorFactura';
  if (id.invoiceNumber === '') return 'NumSerieFactura';
  if (!DATE.test(id.invoiceDate)) return 'FechaExpedicionFactura';
  return undefined;
}

/** The identifier a response line repeats: a number over 60 characters is cut to the schema's length. */
export function answeredId(id: InvoiceId): InvoiceId {
  return longerThan(id.invoiceNumber, NUM_SERIE_MAX)
    ? { ...id, invoiceNumber: [...id.invoiceNumber].slice(0, NUM_SERIE_MAX).join('') }
    : id;
}

/** 1104 length, 1130 characters outside ASCII 32–126, and <, >, ", ', = (1287 now, 1130 in the previous rules). */
export function invoiceNumberError(value: string, field: string, ctx: RuleContext): Finding | undefined {
  if (longerThan(value, NUM_SERIE_MAX)) return { code: 1104 };
  if (!PRINTABLE_ASCII.test(value)) return { code: 1130 };
  if (FORBIDDEN_CHARACTERS.test(value)) return ctx.ruleSet === 'current' ? { code: 1287, detail: field } : { code: 1130 };
  return undefined;
}

/** IDFactura: the issuer's NIF (1120 type, 1219 check character), the number, the issue date (1105). */
export function recordIdError(id: InvoiceId, ctx: RuleContext): Finding | undefined {
  if (!NIF_SHAPE.test(id.issuerNif)) return { code: 1120 };
  if (!isNif(id.issuerNif)) return { code: 1219 };
  const numberError = invoiceNumberError(id.invoiceNumber, 'NumSerieFactura', ctx);
  if (numberError) return numberError;
  if (dateNumber(id.invoiceDate) === undefined) return { code: 1105 };
  return undefined;
}
