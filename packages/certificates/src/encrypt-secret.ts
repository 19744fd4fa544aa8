import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Envelope v2: version (1 byte) | key id (8) | IV (12) | GCM tag (16) | ciphertext. The key id names the master key
// that sealed it, so a rotation can tell which rows are done and a wrong key is reported as such.
// Envelope v1 (written before key ids): version | IV | tag | ciphertext; still opened, by trying the keys given.
const V1 = 1;
const V2 = 2;
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;

function checkKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('the master key must be 32 bytes (AES-256)');
}

/** A short, stable, non-secret name for a master key (hex): a hash of it, not a part of it. */
export function masterKeyId(key: Buffer): string {
  checkKey(key);
  return createHash('sha256').update('vf master key id\n').update(key).digest().subarray(0, KEY_ID_BYTES).toString('hex');
}

/** The id of the key that sealed an envelope; undefined for envelopes written before key ids. */
export function envelopeKeyId(envelope: Buffer): string | undefined {
  return envelope[0] === V2 && envelope.length > 1 + KEY_ID_BYTES ? envelope.subarray(1, 1 + KEY_ID_BYTES).toString('hex') : undefined;
}

/** AES-256-GCM with a fresh random IV: the same secret encrypts differently every time. */
export function encryptSecret(key: Buffer, plain: Buffer): Buffer {
  checkKey(key);
  const header = Buffer.concat([Buffer.from([V2]), Buffer.from(masterKeyId(key), 'hex')]);
  const iv = randomBytes(IV_BYTES);
  // The header is authenticated too: an altered version or key id fails like altered ciphertext.
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(header);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([header, iv, cipher.getAuthTag(), ciphertext]);
}

function open(key: Buffer, header: Buffer, body: Buffer): Buffer {
  if (body.length < IV_BYTES + TAG_BYTES) throw new Error('not a secret envelope this version can open');
  const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
  if (header.length > 1) decipher.setAAD(header);
  decipher.setAuthTag(body.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(body.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch (err) {
    throw new Error('secret envelope failed authentication (wrong key or altered data)', { cause: err });
  }
}

/**
 * Opens an envelope with the key that sealed it, chosen by key id among `keys` (the current master key, plus
 * previous ones during a rotation). Throws when the envelope is malformed, was tampered with, or no key matches.
 */
export function decryptSecret(keys: Buffer | readonly Buffer[], envelope: Buffer): Buffer {
  const candidates = Buffer.isBuffer(keys) ? [keys] : [...keys];
  candidates.forEach(checkKey);
  if (envelope[0] === V2) {
    if (envelope.length < 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES) throw new Error('not a secret envelope this version can open');
    const id = envelopeKeyId(envelope)!;
    const key = candidates.find((k) => masterKeyId(k) === id);
    // A key id matching none of ours can still be an altered envelope: try the current key, which fails authentication.
    return open(key ?? candidates[0], envelope.subarray(0, 1 + KEY_ID_BYTES), envelope.subarray(1 + KEY_ID_BYTES));
  }
  if (envelope[0] === V1 && envelope.length >= 1 + IV_BYTES + TAG_BYTES) {
    let lastError: unknown;
    for (const key of candidates) {
      try {
        return open(key, envelope.subarray(0, 1), envelope.subarray(1));
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError;
  }
  throw new Error('not a secret envelope this version can open');
}
