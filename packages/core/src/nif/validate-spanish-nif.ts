export type NifKind = 'dni' | 'nie' | 'klm' | 'entity';

export interface NifCheck {
  valid: boolean;
  /** Uppercase, without spaces, hyphens or a leading "ES": what the record carries. */
  normalized: string;
  /** Only when valid. */
  kind?: NifKind;
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const ENTITY_CONTROL_LETTERS = 'JABCDEFGHI';

/**
 * Structure and check character of a Spanish NIF (as python-stdnum's es.nif checks it; the authority publishes no
 * algorithm). It says nothing about the census: a well-formed NIF can still be unknown to the authority.
 */
export function validateSpanishNif(input: string): NifCheck {
  const normalized = normalizeNif(input);
  const kind = checkedKind(normalized);
  return kind ? { valid: true, normalized, kind } : { valid: false, normalized };
}

export function normalizeNif(input: string): string {
  const compact = input.toUpperCase().replace(/[\s-]/g, '');
  return compact.length === 11 && compact.startsWith('ES') ? compact.slice(2) : compact;
}

function checkedKind(nif: string): NifKind | undefined {
  if (/^\d{8}[A-Z]$/.test(nif)) return dniLetter(Number(nif.slice(0, 8))) === nif[8] ? 'dni' : undefined;
  if (/^[XYZ]\d{7}[A-Z]$/.test(nif)) {
    const number = Number(String('XYZ'.indexOf(nif[0])) + nif.slice(1, 8));
    return dniLetter(number) === nif[8] ? 'nie' : undefined;
  }
  if (/^[KLM]\d{7}[A-Z]$/.test(nif)) return dniLetter(Number(nif.slice(1, 8))) === nif[8] ? 'klm' : undefined;
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(nif)) return entityControlMatches(nif) ? 'entity' : undefined;
  return undefined;
}

function dniLetter(number: number): string {
  return DNI_LETTERS[number % 23];
}

// Which entity types use the letter and which the digit is a convention the authority does not
// publish; both forms carry the same check value, so both are accepted for every type.
function entityControlMatches(nif: string): boolean {
  // Read in place (every recipient and issuer NIF of every invoice passes here): the seven digits after the letter.
  let sum = 0;
  for (let index = 0; index < 7; index++) {
    const digit = nif.charCodeAt(index + 1) - 48;
    if (index % 2 === 1) sum += digit;
    else {
      const doubled = digit * 2;
      sum += Math.floor(doubled / 10) + (doubled % 10);
    }
  }
  const control = (10 - (sum % 10)) % 10;
  const given = nif[8];
  return given === String(control) || given === ENTITY_CONTROL_LETTERS[control];
}
