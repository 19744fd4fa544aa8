import { createCipheriv, randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, envelopeKeyId, masterKeyId } from './encrypt-secret';

const key = randomBytes(32);
const secret = Buffer.from('certificate password ñ', 'utf8');

// An envelope as written before key ids existed: version 1 | IV | tag | ciphertext.
function legacyEnvelope(k: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', k, iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), ciphertext]);
}

describe('encryptSecret / decryptSecret', () => {
  it('round-trips, and never leaves the secret readable in the envelope', () => {
    const envelope = encryptSecret(key, secret);
    expect(envelope.includes(secret)).toBe(false);
    expect(decryptSecret(key, envelope).equals(secret)).toBe(true);
  });

  it('uses a fresh IV each time, so equal secrets do not give equal envelopes', () => {
    expect(encryptSecret(key, secret).equals(encryptSecret(key, secret))).toBe(false);
  });

  it('names the sealing key by an id that reveals nothing of the key, and picks that key from several', () => {
    const previous = randomBytes(32);
    const envelope = encryptSecret(previous, secret);
    expect(envelopeKeyId(envelope)).toBe(masterKeyId(previous));
    expect(masterKeyId(previous)).toMatch(/^[0-9a-f]{16}$/);
    expect(previous.toString('hex')).not.toContain(masterKeyId(previous));
    expect(decryptSecret([key, previous], envelope).equals(secret)).toBe(true);
  });

  it('still opens envelopes written before key ids', () => {
    const legacy = legacyEnvelope(key, secret);
    expect(envelopeKeyId(legacy)).toBeUndefined();
    expect(decryptSecret([randomBytes(32), key], legacy).equals(secret)).toBe(true);
    expect(() => decryptSecret(randomBytes(32), legacy)).toThrow(/authentication/);
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
    expect(() => decryptSecret(key, Buffer.concat([Buffer.from([3]), envelope.subarray(1)]))).toThrow(/version/);
    expect(() => decryptSecret(key, envelope.subarray(0, 20))).toThrow(/version/);
    expect(() => encryptSecret(randomBytes(16), secret)).toThrow(/32 bytes/);
  });
});
