import { normaliseCensusName } from '@vf/core';
import type { CensusAnswerRow, CensusQuestion } from '@vf/xml';
import { isNif } from '../rules/formats';
import type { CensusEntry } from './census-book';

/** `Resultado` as the census writes it. */
export const RESULTADO = {
  identified: 'IDENTIFICADO',
  similar: 'NO IDENTIFICADO-SIMILAR',
  notIdentified: 'NO IDENTIFICADO',
  deregistered: 'IDENTIFICADO-BAJA',
  revoked: 'IDENTIFICADO-REVOCADO',
  notProcessed: 'NO PROCESADO',
} as const;

type NameMatch = 'same' | 'similar' | 'different';

/** Same once normalised; similar when at least half of the registered name's words are in the name asked. */
function compareNames(registered: string, asked: string): NameMatch {
  const a = normaliseCensusName(registered);
  const b = normaliseCensusName(asked);
  if (a === b) return 'same';
  const askedWords = new Set(b.split(' '));
  const words = a.split(' ');
  const shared = words.filter((word) => askedWords.has(word)).length;
  return shared * 2 >= words.length ? 'similar' : 'different';
}

const KNOWN_RESULT = { identified: RESULTADO.identified, deregistered: RESULTADO.deregistered, revoked: RESULTADO.revoked } as const;

/**
 * What the census answers for one row: a seeded entry first; otherwise a NIF of valid form not listed as unknown is
 * known, and the name asked is echoed (as the census does for natural persons, whose names it does not disclose).
 */
export function answerCensusRow(
  question: CensusQuestion,
  entry: CensusEntry | undefined,
  unknownNifs: ReadonlySet<string>,
): CensusAnswerRow {
  const answer = (result: string, name = question.name) => ({ nif: question.nif, name, result });
  if (!entry) return answer(isNif(question.nif) && !unknownNifs.has(question.nif) ? RESULTADO.identified : RESULTADO.notIdentified);
  if (entry.status === 'unknown') return answer(RESULTADO.notIdentified);
  if (entry.status === 'not_processed') return answer(RESULTADO.notProcessed);
  if (entry.name === undefined) return answer(KNOWN_RESULT[entry.status]);
  const match = compareNames(entry.name, question.name);
  if (match === 'same') return answer(KNOWN_RESULT[entry.status], entry.name);
  return match === 'similar' ? answer(RESULTADO.similar, entry.name) : answer(RESULTADO.notIdentified);
}
