const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** A well-formed Spanish DNI-type NIF (check letter included) for test number n. */
export function testNif(n: number): string {
  const digits = String(89_000_000 + n).padStart(8, '0');
  return `${digits}${DNI_LETTERS[Number(digits) % 23]}`;
}
