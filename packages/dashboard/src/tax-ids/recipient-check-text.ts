import type { RecipientCheckAnswer } from '../dashboard-api';
import { t } from '../i18n/i18n';

const DETAILS = ['identified', 'similar', 'not_identified', 'deregistered', 'revoked', 'not_processed'] as const;

/** What VIES said of a VAT number: its fault code named when it gave one (a member state down, a refused number). */
function viesText(answer: RecipientCheckAnswer): string {
  if (answer.faultCode) {
    return t(answer.result === 'invalid' ? 'keptCheck.viesRefused' : 'keptCheck.viesFault', { code: answer.faultCode });
  }
  return t(answer.detail === 'identified' ? 'keptCheck.viesValid' : 'keptCheck.viesUnknownNumber');
}

/**
 * What the census said of a NIF and name (the census name when it holds a similar one), or VIES of a VAT number, in
 * the page's language.
 */
export function recipientCheckText(answer: RecipientCheckAnswer): string {
  if (answer.source === 'vies') return viesText(answer);
  if (answer.detail === 'similar') return t('taxIds.similar', { name: answer.censusName ?? '' });
  return (DETAILS as readonly string[]).includes(answer.detail) ? t(`taxIds.${answer.detail}`) : t('taxIds.unavailable');
}
