import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookieOptions, SESSION_COOKIE } from '../session/session-cookie';

/**
 * A freshly issued API key survives the POST-redirect-GET in a short-lived cookie, sealed (AES-256-GCM) with a key
 * derived from the session token itself: the server keeps no copy, the URL never carries it, and only the browser
 * holding that session can open it. The page that shows it deletes the cookie, so a reload shows it no more and
 * issues nothing.
 */
export const NEW_KEY_COOKIE = 'vf_new_key';
const LIFETIME_MS = 5 * 60 * 1000;

function keyFor(sessionToken: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionToken, Buffer.alloc(0), 'vf dashboard new API key', 32));
}

export function holdNewKey(req: Request, res: Response, sessionToken: string, apiKey: string): void {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(sessionToken), iv);
  const sealed = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
  const value = [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url')).join('.');
  res.cookie(NEW_KEY_COOKIE, value, { ...cookieOptions(req), path: '/app', maxAge: LIFETIME_MS });
}

/** The key held for this session, once: the cookie is cleared whether or not it could be opened. */
export function takeNewKey(req: Request, res: Response): string | undefined {
  const value: unknown = req.cookies?.[NEW_KEY_COOKIE];
  if (typeof value !== 'string') return undefined;
  res.clearCookie(NEW_KEY_COOKIE, { ...cookieOptions(req), path: '/app' });
  const token: unknown = req.cookies?.[SESSION_COOKIE];
  const [iv, tag, sealed] = value.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (typeof token !== 'string' || !iv || !tag || !sealed || iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(token), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
  } catch {
    // Sealed for another session (signed out and in again): it cannot be opened, and is simply gone.
    return undefined;
  }
}
