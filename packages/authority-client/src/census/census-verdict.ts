/** Valid, invalid, or not known now (never cached, never blocking). */
export type CensusResult = 'valid' | 'invalid' | 'unknown';
export type CensusDetail = 'identified' | 'similar' | 'not_identified' | 'deregistered' | 'revoked' | 'not_processed';

export interface CensusVerdict {
  result: CensusResult;
  detail: CensusDetail;
  /** The name the census holds, when it answered that the name asked is only similar. */
  censusName?: string;
}

const DETAILS: Record<string, CensusDetail> = {
  IDENTIFICADO: 'identified',
  'NO IDENTIFICADO-SIMILAR': 'similar',
  'NO IDENTIFICADO': 'not_identified',
  'IDENTIFICADO-BAJA': 'deregistered',
  'IDENTIFICADO-REVOCADO': 'revoked',
  'NO PROCESADO': 'not_processed',
};

/** The three-way result of a detail the census gave. */
export function resultOf(detail: CensusDetail): CensusResult {
  if (detail === 'identified') return 'valid';
  return detail === 'not_processed' ? 'unknown' : 'invalid';
}

/** What `Resultado` says, read with any spacing around its hyphen; a value never seen is a row not processed. */
export function readResultado(resultado: string, name: string): CensusVerdict {
  const detail =
    DETAILS[
      resultado
        .trim()
        .toUpperCase()
        .replace(/\s*-\s*/, '-')
        .replace(/\s+/g, ' ')
    ] ?? 'not_processed';
  return detail === 'similar' ? { result: 'invalid', detail, censusName: name.trim() } : { result: resultOf(detail), detail };
}
