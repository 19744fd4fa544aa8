import type { Db } from '@vf/db';
import { accountStore } from '@vf/db/src/stores';
import type { PasswordHasher } from '../../auth/password-hasher';
import type { LoginRateLimiter } from '../session/login-rate-limiter';
import type { SessionService, StartedSession } from '../session/session-service';

export type SignInResult =
  | { outcome: 'signed_in'; session: StartedSession }
  | { outcome: 'wrong_credentials'; attemptsLeft: number; pauseSeconds: number }
  | { outcome: 'blocked'; retryAfterSeconds: number };

export type SignInService = ReturnType<typeof createSignInService>;

/** Email + password sign-in for the dashboard, against the same accounts and password hashes as the API. */
export function createSignInService(deps: { db: Db; passwords: PasswordHasher; sessions: SessionService; limiter: LoginRateLimiter }) {
  return {
    /** `email` must already be normalised (trimmed, lower-cased) like the accounts table stores it. */
    async signIn(email: string, password: string, ip: string): Promise<SignInResult> {
      const blockedFor = await deps.limiter.blockedFor(email, ip);
      if (blockedFor > 0) return { outcome: 'blocked', retryAfterSeconds: blockedFor };
      const account = await accountStore.findByEmail(deps.db, email);
      // verify() spends a bcrypt comparison for unknown emails too: timing does not reveal who has an account.
      const ok = await deps.passwords.verify(password, account?.passwordHash);
      if (!account || !ok) {
        await deps.limiter.recordFailure(email, ip);
        const nowBlocked = await deps.limiter.blockedFor(email, ip);
        if (nowBlocked > 0) return { outcome: 'blocked', retryAfterSeconds: nowBlocked };
        return { outcome: 'wrong_credentials', attemptsLeft: await deps.limiter.attemptsLeft(email, ip), pauseSeconds: deps.limiter.limit.windowSeconds };
      }
      await deps.limiter.reset(email, ip);
      return { outcome: 'signed_in', session: await deps.sessions.start(account.id) };
    },

    /** A fresh account is signed in at once. */
    startSession(accountId: string): Promise<StartedSession> {
      return deps.sessions.start(accountId);
    },

    signOut(token: string): Promise<void> {
      return deps.sessions.end(token);
    },
  };
}
