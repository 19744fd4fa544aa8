import { inPlainWords } from '../authority-codes/cause-text';
import { aeatError } from '../authority-codes/aeat-error-table';
import { CODE_CATALOGUE } from '../authority-codes/code-catalogue';
import type { ValidationIssue } from './types';

/**
 * A warning the authority would store the record with (a code of its "accepted with errors" level, 2000-2009) carries
 * the plain explanation the dashboard shows for that code, so the user knows what to correct later and how.
 */
export function explainWarning(warning: ValidationIssue): ValidationIssue {
  const code = warning.authority_code;
  if (code === undefined || aeatError(code)?.level !== 'accepted') return warning;
  const text = CODE_CATALOGUE.get(code)?.text;
  return text ? { ...warning, explanation: { es: inPlainWords(text, 'es'), en: inPlainWords(text, 'en') } } : warning;
}
