import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

// Hashing first gives equal-length buffers, so the comparison time does not depend on where inputs differ.
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

function credentialsOf(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** HTTP Basic for operator pages; answers a plain 401 challenge so browsers prompt for credentials. */
export function basicAuth(expected: { user: string; password: string }, realm: string): RequestHandler {
  return (req, res, next) => {
    const given = credentialsOf(req.headers.authorization);
    // Both comparisons always run: a wrong user name costs the same time as a wrong password.
    const userOk = sameSecret(given?.user ?? '', expected.user);
    const passwordOk = sameSecret(given?.password ?? '', expected.password);
    if (given && userOk && passwordOk) return next();
    res.setHeader('WWW-Authenticate', `Basic realm="${realm}", charset="UTF-8"`);
    res.status(401).type('text/plain').send('Authentication required');
  };
}
