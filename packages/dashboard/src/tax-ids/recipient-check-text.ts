import type { CensusTaxIdAnswer, TaxIdAnswer, ViesTaxIdAnswer } from '@vf/contract';
import { t } from '../i18n/i18n';

/** What the text needs of an answer: as the API's check gives it, or read back from its JSON (kept, or in a refusal). */
type SaidOf = Pick<TaxIdAnswer, 'result' | 'detail' | 'source'> &
  Pick<CensusTaxIdAnswer, 'censusName'> &
  Pick<ViesTaxIdAnswer, 'faultCode'>;

const DETAILS = ['identified', 'similar', 'not_identified', 'deregistered', 'revoked', 'not_processed'] as const;

/** What VIES said of a VAT number: its fault code named when it gave one (a member state down, a refused number). */
function viesText(answer: SaidOf): string {
  if (answer.faultCode) {
    return t(answer.result === 'invalid' ? 'keptCheck.viesRefused' : 'keptCheck.viesFault', { code: answer.faultCode });
  }
  return t(answer.detail === 'identified' ? 'keptCheck.viesValid' : 'keptCheck.viesUnknownNumber');
}

/**
 * What the census said of a NIF and name (the census name when it holds a similar one), or VIES of a VAT number, in
 * the page's language.
 */
export function recipientCheckText(answer: SaidOf): string {
  if (answer.source === 'vies') return viesText(answer);
  if (answer.detail === 'similar') return t('taxIds.similar', { name: answer.censusName ?? '' });
  return (DETAILS as readonly string[]).includes(answer.detail) ? t(`taxIds.${answer.detail}`) : t('taxIds.unavailable');
}
