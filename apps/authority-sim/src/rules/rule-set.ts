import { AEAT_ERROR_TABLE, AEAT_PREVIOUS_TABLE_ONLY, type AeatErrorEntry, type AeatErrorLevel } from '@vf/core';

/**
 * The authority's rules change underneath its clients: two error tables were live at once, and the validation
 * document changed several times in 2025. The simulator applies one published rule set at a time:
 *
 * - `current`: the table served as errores-tikeV1.0.properties (247 codes) with the validation document it goes
 *   with (AEAT "Validaciones y errores" v1.2.0): a previous huella equal to the record's own is accepted with
 *   errors (2008); forbidden characters in NumSerieFactura are 1287; IPSI without ClaveRegimen is 2009; 1286,
 *   1289-1293 apply.
 * - `previous`: the earlier errores.properties (239 codes): the same case was a rejection (1278); recargo de
 *   equivalencia was tied to ClaveRegimen 18 (1279, 1280); IPSI took no ClaveRegimen (1260); totals off by more
 *   than 10.00 were rejections (1210, 1216), as that table's rejection section lists them.
 */
export const RULE_SETS = ['current', 'previous'] as const;
export type RuleSetId = (typeof RULE_SETS)[number];

const CURRENT = new Map(AEAT_ERROR_TABLE.map((e) => [e.code, e]));
const PREVIOUS_ONLY = new Map(AEAT_PREVIOUS_TABLE_ONLY.map((e) => [e.code, e]));
/** Codes the previous table did not have yet. */
const CURRENT_ONLY = new Set([1285, 1286, 1287, 1288, 1289, 1290, 1291, 1292, 1293, 2009, 4141]);

/** The table entry of a code under a rule set; undefined for a code that rule set's table does not list. */
export function tableEntry(ruleSet: RuleSetId, code: number): AeatErrorEntry | undefined {
  if (ruleSet === 'previous') return CURRENT_ONLY.has(code) ? undefined : (CURRENT.get(code) ?? PREVIOUS_ONLY.get(code));
  return CURRENT.get(code);
}

export function codeLevel(ruleSet: RuleSetId, code: number): AeatErrorLevel | undefined {
  return tableEntry(ruleSet, code)?.level;
}

/** Codes the authority answers that are not in its table: internal errors and the signature platform's refusal. */
export const UNLISTED_FAULTS: Readonly<Record<number, { text: string; side: 'client' | 'server' }>> = {
  102: { text: 'Error interno en el servidor', side: 'server' },
  401: { text: 'Error al llamar a @firma  COD_066 El certificado no es soportado por el sistema', side: 'client' },
  20009: { text: 'Error interno en el servidor', side: 'server' },
};

/**
 * DescripcionErrorRegistro / faultstring text of a code: the table's own words; 1287's "%s" names the field,
 * and other codes take the detail after their text (2004 states its margin this way).
 */
export function codeText(ruleSet: RuleSetId, code: number, detail = ''): string {
  const text = tableEntry(ruleSet, code)?.text ?? tableEntry('current', code)?.text ?? UNLISTED_FAULTS[code]?.text ?? 'Error';
  return text.includes('%s') ? text.replace('%s', detail) : `${text}${detail}`;
}
