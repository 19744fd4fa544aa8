import type { RuleSetId } from './rules/rule-set';
import { clientFault, type SoapOutcome } from './soap-outcome';

// libxml2 names the elements it expected: "Element '{ns}X': Missing child element(s). Expected is ( {ns}Y )." or
// "… This element is not expected. Expected is one of ( {ns}A, {ns}B )."; optional elements come before the
// mandatory one a sequence stops at, so the last named is the one missing.
const EXPECTED = /Expected is (?:one of )?\(([^)]*)\)/;

/**
 * 4102 for a message the schemas refuse. When a mandatory element is missing, the authority names it after its
 * text ("Falta informar campo obligatorio.: <Campo>", observed); otherwise the validator's words follow.
 */
export function schemaFault(ruleSet: RuleSetId, error: string): SoapOutcome {
  const expected = EXPECTED.exec(error)?.[1]
    .split(',')
    .pop()
    ?.replace(/\{[^}]*\}/, '')
    .trim();
  return clientFault(4102, expected ? `: ${expected}` : ` ${error}`, ruleSet);
}
