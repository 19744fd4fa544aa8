import { defaultSystemCode, SYSTEM_CODE } from './system-code';

test('the default IdSistemaInformatico comes from the name, accents dropped, else "01"', () => {
  expect(defaultSystemCode('facturador')).toBe('FA');
  expect(defaultSystemCode('Ñandú TPV')).toBe('NA');
  expect(defaultSystemCode('  9-lives')).toBe('9L');
  expect(defaultSystemCode('É')).toBe('01');
  expect(defaultSystemCode('¿?')).toBe('01');
  for (const name of ['facturador', 'Ñandú TPV', 'É', 'ça va']) expect(defaultSystemCode(name)).toMatch(SYSTEM_CODE);
});
