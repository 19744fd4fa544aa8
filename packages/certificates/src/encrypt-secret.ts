import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Envelope: version (1 byte) | IV (12) | GCM tag (16) | ciphertext. The version lets a later key or
// algorithm change coexist with rows written before it.
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

function checkKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('the master key must be 32 bytes (AES-256)');
}

/** AES-256-GCM with a fresh random IV: the same secret encrypts differently every time. */
export function encryptSecret(key: Buffer, plain: Buffer): Buffer {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
}

/** Throws when the envelope is malformed, was tampered with, or was sealed under another key. */
export function decryptSecret(key: Buffer, envelope: Buffer): Buffer {
  checkKey(key);
  if (envelope.length < HEADER_BYTES || envelope[0] !== VERSION) throw new Error('not a secret envelope this version can open');
  const iv = envelope.subarray(1, 1 + IV_BYTES);
  const tag = envelope.subarray(1 + IV_BYTES, HEADER_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(envelope.subarray(HEADER_BYTES)), decipher.final()]);
  } catch (err) {
    throw new Error('secret envelope failed authentication (wrong key or altered data)', { cause: err });
  }
}
