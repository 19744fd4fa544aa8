import type { RecipientCheckAnswer } from '../dashboard-api';
import { t } from '../i18n/i18n';

const DETAILS = ['identified', 'similar', 'not_identified', 'deregistered', 'revoked', 'not_processed'] as const;

/** What the census said of a NIF and name, in the page's language (the census name when it holds a similar one). */
export function recipientCheckText(answer: RecipientCheckAnswer): string {
  if (answer.detail === 'similar') return t('taxIds.similar', { name: answer.censusName ?? '' });
  return (DETAILS as readonly string[]).includes(answer.detail) ? t(`taxIds.${answer.detail}`) : t('taxIds.unavailable');
}
