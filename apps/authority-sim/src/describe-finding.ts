import type { Finding, RuleContext } from './rules/rule-context';
import { codeText } from './rules/rule-set';

/** The authority's limit on a line's ErrorDescription. */
const DESCRIPTION_MAX = 1500;

/** A finding's text as a response line carries it: the rule set's wording of its code, within the authority's limit. */
export function describeFinding(rules: RuleContext, finding: Finding): string {
  return codeText(rules.ruleSet, finding.code, finding.detail).slice(0, DESCRIPTION_MAX);
}
