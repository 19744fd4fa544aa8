/** IdSistemaInformatico: two characters, uppercase A-Z (no Ñ) or digits. */
export const SYSTEM_CODE = /^[A-Z0-9]{2}$/;

/** Default code: the first two letters or digits of the name, accents dropped ("Ñandú" -> "NA"); "01" if there are not two. */
export function defaultSystemCode(name: string): string {
  const plain = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  return plain.length >= 2 ? plain.slice(0, 2) : '01';
}
