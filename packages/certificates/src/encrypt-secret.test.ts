import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret } from './encrypt-secret';

const key = randomBytes(32);
const secret = Buffer.from('certificate password ñ', 'utf8');

describe('encryptSecret / decryptSecret', () => {
  it('round-trips, and never leaves the secret readable in the envelope', () => {
    const envelope = encryptSecret(key, secret);
    expect(envelope.includes(secret)).toBe(false);
    expect(decryptSecret(key, envelope).equals(secret)).toBe(true);
  });

  it('uses a fresh IV each time, so equal secrets do not give equal envelopes', () => {
    expect(encryptSecret(key, secret).equals(encryptSecret(key, secret))).toBe(false);
  });

  it('refuses an envelope sealed under another key or altered in any byte', () => {
    const envelope = encryptSecret(key, secret);
    expect(() => decryptSecret(randomBytes(32), envelope)).toThrow(/authentication/);
    for (const at of [5, 20, envelope.length - 1]) {
      const altered = Buffer.from(envelope);
      altered[at] ^= 0x01;
      expect(() => decryptSecret(key, altered)).toThrow(/authentication/);
    }
  });

  it('refuses unknown versions, truncated envelopes and keys of the wrong size', () => {
    const envelope = encryptSecret(key, secret);
    expect(() => decryptSecret(key, Buffer.concat([Buffer.from([2]), envelope.subarray(1)]))).toThrow(/version/);
    expect(() => decryptSecret(key, envelope.subarray(0, 20))).toThrow(/version/);
    expect(() => encryptSecret(randomBytes(16), secret)).toThrow(/32 bytes/);
  });
});
