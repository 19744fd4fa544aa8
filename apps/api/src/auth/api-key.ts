import { createHash, randomBytes } from 'node:crypto';

/** Recognisable prefix: secret scanners and humans can tell our keys apart. */
export const API_KEY_PREFIX = 'vfk_';
const API_KEY_SHAPE = /^vfk_[A-Za-z0-9_-]{43}$/;

export interface IssuedApiKey {
  /** Shown to the client once; never stored. */
  key: string;
  digest: string;
  hint: string;
}

/** SHA-256 is enough: the key carries 256 random bits, so there is nothing to brute-force. */
export function digestApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function issueApiKey(): IssuedApiKey {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, digest: digestApiKey(key), hint: `${key.slice(0, API_KEY_PREFIX.length + 4)}…` };
}

export function looksLikeApiKey(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}
