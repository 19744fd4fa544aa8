import { createHash, randomBytes } from 'node:crypto';
import type { StartedSession } from '@vf/contract';
import type { Db } from '@vf/db';
import { webSessionStore, type WebSession } from '@vf/db';

export interface SessionPolicy {
  /** Sliding expiry: a session unused for this long is over. */
  idleMs: number;
  /** Hard cap from sign-in, whatever the activity. */
  absoluteMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 12 * 60 * 60 * 1000, absoluteMs: 7 * 24 * 60 * 60 * 1000 };

// Writing the new expiry on every request would turn each page view into an UPDATE; a few minutes of slack is harmless.
const EXTEND_SLACK_MS = 5 * 60 * 1000;

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface SessionService {
  start(accountId: string): Promise<StartedSession>;
  /** The live session for a cookie token, its expiry slid forward; undefined when unknown or expired. */
  resume(token: string): Promise<WebSession | undefined>;
  end(token: string): Promise<void>;
}

export function createSessionService(deps: { db: Db; policy?: SessionPolicy; now?: () => Date }): SessionService {
  const policy = deps.policy ?? DEFAULT_SESSION_POLICY;
  const now = deps.now ?? (() => new Date());

  return {
    async start(accountId) {
      const at = now();
      await webSessionStore.deleteExpired(deps.db, at);
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(at.getTime() + policy.idleMs);
      const csrfToken = randomBytes(32).toString('base64url');
      const id = await webSessionStore.insert(deps.db, { tokenDigest: tokenDigest(token), accountId, csrfToken, createdAt: at, expiresAt });
      return { token, id, csrfToken, createdAt: at, expiresAt };
    },

    async resume(token) {
      const at = now();
      const session = await webSessionStore.findLive(deps.db, tokenDigest(token), at);
      if (!session) return undefined;
      const cap = session.createdAt.getTime() + policy.absoluteMs;
      if (at.getTime() >= cap) {
        await webSessionStore.delete(deps.db, tokenDigest(token));
        return undefined;
      }
      const slid = Math.min(at.getTime() + policy.idleMs, cap);
      if (slid - session.expiresAt.getTime() > EXTEND_SLACK_MS) {
        await webSessionStore.extend(deps.db, session.id, new Date(slid));
        return { ...session, expiresAt: new Date(slid) };
      }
      return session;
    },

    async end(token) {
      await webSessionStore.delete(deps.db, tokenDigest(token));
    },
  };
}
