import { createHash, timingSafeEqual } from 'node:crypto';

export interface OperatorCredentials {
  user: string;
  password: string;
}

// Hashing first gives equal-length buffers, so the comparison time does not depend on where inputs differ.
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

function credentialsOf(header: string | undefined): OperatorCredentials | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Whether an `Authorization` header carries the operator's Basic credentials. Shared by every operator surface (Bull
 * Board, the API's and the workers' `/metrics`) so they all accept exactly the same thing.
 */
export function operatorAuthorized(header: string | undefined, expected: OperatorCredentials): boolean {
  const given = credentialsOf(header);
  // Both comparisons always run: a wrong user name costs the same time as a wrong password.
  const userOk = sameSecret(given?.user ?? '', expected.user);
  const passwordOk = sameSecret(given?.password ?? '', expected.password);
  return given !== undefined && userOk && passwordOk;
}

/** The `WWW-Authenticate` challenge of a 401, so browsers and scrapers know to send Basic credentials. */
export function operatorChallenge(realm: string): string {
  return `Basic realm="${realm}", charset="UTF-8"`;
}
