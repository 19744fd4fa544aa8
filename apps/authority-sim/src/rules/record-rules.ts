import type { XmlNode } from '@vf/xml';
import { altaFacts } from './alta-facts';
import { altaSyntaxError } from './alta-syntax-rules';
import { cancellationContentError, cancellationSyntaxError } from './cancellation-rules';
import { dateError } from './date-rules';
import { invoiceTotalError } from './invoice-total-rules';
import { invoiceTypeError, thirdPartyError } from './invoice-type-rules';
import { linesError } from './line-rules';
import { recipientsError, referencedIssuerError } from './recipient-rules';
import { chainTailContentError } from './chain-tail-rules';
import type { Finding, RuleContext } from './rule-context';

export type RecordKind = 'alta' | 'anulacion';

/** A value whose form is wrong: the record is rejected (Incorrecto) before anything else is looked at. */
export function recordSyntaxError(kind: RecordKind, raw: XmlNode, ctx: RuleContext): Finding | undefined {
  return kind === 'alta' ? altaSyntaxError(raw, ctx) : cancellationSyntaxError(raw, ctx);
}

/** A non-admissible business rule the record breaks: rejected, not stored. Assumes recordSyntaxError found nothing. */
export function recordContentError(kind: RecordKind, raw: XmlNode, ctx: RuleContext): Finding | undefined {
  let code: number | undefined;
  if (kind === 'anulacion') code = cancellationContentError(raw, ctx);
  else {
    const alta = altaFacts(raw);
    code =
      dateError(alta, ctx) ??
      invoiceTypeError(alta) ??
      thirdPartyError(alta, ctx) ??
      recipientsError(alta, ctx) ??
      referencedIssuerError(alta, ctx) ??
      linesError(alta, ctx) ??
      invoiceTotalError(alta, ctx) ??
      chainTailContentError(raw, alta.id.issuerNif, ctx);
  }
  return code === undefined ? undefined : { code };
}
