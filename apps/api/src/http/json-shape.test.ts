import { controlCharacterField } from './input-guard';
import { scanJson } from './json-shape';

// The scan says a body holds no control character only when the walk of its parsed value would find none: a body it
// lets through unwalked must never hold one, in a value or a key, raw or escaped.
const CODES = [...Array.from({ length: 0x300 }, (_, c) => c), ...[0x2028, 0x2029, 0xd7ff, 0xe000, 0xfeff, 0xfffd, 0xffff]];
const hex4 = (c: number) => c.toString(16).padStart(4, '0');

describe('scanJson', () => {
  it('finds every control character JSON.stringify leaves raw or escapes, in values and keys', () => {
    for (const c of CODES) {
      const char = String.fromCharCode(c);
      for (const value of [{ k: `a${char}b` }, { [`k${char}`]: 1 }, [{ x: [`${char}`] }]]) {
        const text = JSON.stringify(value);
        const walked = controlCharacterField(JSON.parse(text)) !== undefined;
        expect([hex4(c), text, scanJson(Buffer.from(text)).controls]).toEqual([hex4(c), text, walked]);
      }
    }
  });

  it('finds every control character written as a \\u escape, in either case, and \\b and \\f', () => {
    for (const c of CODES) {
      const walked = controlCharacterField({ k: String.fromCharCode(c) }) !== undefined;
      for (const escape of [hex4(c), hex4(c).toUpperCase()]) {
        expect([escape, scanJson(Buffer.from(`{"k":"a\\u${escape}b"}`)).controls]).toEqual([escape, walked]);
      }
    }
    expect(scanJson(Buffer.from('{"k":"a\\bb"}')).controls).toBe(true);
    expect(scanJson(Buffer.from('{"k":"a\\fb"}')).controls).toBe(true);
    expect(scanJson(Buffer.from('{"k":"a\\t\\n\\r\\"\\\\\\/b"}')).controls).toBe(false);
  });

  it('takes an emoji, accented letters and a truncated escape as they are: no control, or maybe one', () => {
    expect(scanJson(Buffer.from(JSON.stringify({ k: 'Consultoría 😀 €' }))).controls).toBe(false);
    expect(scanJson(Buffer.from('{"k":"\\u00'))).toMatchObject({ controls: true });
  });
});
