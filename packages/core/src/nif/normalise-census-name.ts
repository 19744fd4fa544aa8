/**
 * A name as the census compares it: upper case, accents dropped (Ñ and Ç kept: they are letters of their own in
 * Spanish and Catalan names), hyphens as spaces, other punctuation dropped (S.L. is SL), runs of spaces as one. The census returns names with
 * accents, padding and double spaces, so two spellings of one name must meet here.
 */
export function normaliseCensusName(name: string): string {
  return name
    .toUpperCase()
    .normalize('NFD')
    .replace(/(N\u0303|C\u0327)|\p{M}/gu, (_mark, kept: string | undefined) => kept ?? '')
    .normalize('NFC')
    .replace(/[-\s]+/gu, ' ')
    .replace(/[^\p{L}\p{N} ]+/gu, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}
