import { ID_TYPES } from '@vf/core';
import { node, text, type XmlNode } from '@vf/xml';
import { blank, isCountry, isNif, longerThan } from './formats';

/** What can be wrong in the form of a person's identification (PersonaFisicaJuridicaType and IDOtroType). */
export type IdentityFault = 'choice' | 'name' | 'nif' | 'country' | 'idType' | 'id';

const ID_TYPE_CODES = Object.keys(ID_TYPES);

/** The first fault of an identification block: NIF xor IDOtro, the name's length, and each value's form. */
export function identityFault(person: XmlNode): IdentityFault | undefined {
  const nif = text(person, 'NIF');
  const other = node(person, 'IDOtro');
  if ((nif === undefined) === (other === undefined)) return 'choice';
  const name = text(person, 'NombreRazon');
  if (name !== undefined && longerThan(name, 120)) return 'name';
  if (nif !== undefined) return isNif(nif) ? undefined : 'nif';
  const country = text(other!, 'CodigoPais');
  if (country !== undefined && !isCountry(country)) return 'country';
  if (!ID_TYPE_CODES.includes(text(other!, 'IDType') ?? '')) return 'idType';
  const id = text(other!, 'ID');
  if (blank(id) || longerThan(id!, 20)) return 'id';
  return undefined;
}

/** The code each block of the record gives each fault (the authority names the block it found wrong). */
export const IDENTITY_CODES: Readonly<Record<'recipient' | 'thirdParty' | 'generator' | 'system', Record<IdentityFault, number>>> = {
  recipient: { choice: 1239, name: 1100, nif: 1123, country: 1101, idType: 1102, id: 1103 },
  thirdParty: { choice: 1178, name: 1178, nif: 1178, country: 1178, idType: 1178, id: 1178 },
  generator: { choice: 1228, name: 1273, nif: 1258, country: 1273, idType: 1231, id: 1273 },
  system: { choice: 1223, name: 1179, nif: 1176, country: 1179, idType: 1221, id: 1222 },
};

export function identityError(person: XmlNode | undefined, block: keyof typeof IDENTITY_CODES): number | undefined {
  const fault = person ? identityFault(person) : undefined;
  return fault ? IDENTITY_CODES[block][fault] : undefined;
}

/** IDOtro/IDType and CodigoPais of a person identified without a NIF. */
export function otherId(person: XmlNode): { country?: string; idType: string; id: string } | undefined {
  const other = node(person, 'IDOtro');
  if (!other) return undefined;
  return { country: text(other, 'CodigoPais'), idType: text(other, 'IDType') ?? '', id: text(other, 'ID') ?? '' };
}
