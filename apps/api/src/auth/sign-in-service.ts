import type { SignInResult, StartedSession } from '@vf/contract';
import type { Db } from '@vf/db';
import { accountStore } from '@vf/db';
import type { CredentialThrottle } from './credential-throttle';
import type { PasswordHasher } from './password-hasher';
import type { SessionService } from './session-service';

export type SignInService = ReturnType<typeof createSignInService>;

/** Email + password sign-in for the dashboard, against the same accounts, password hashes and throttle as the API. */
export function createSignInService(deps: { db: Db; passwords: PasswordHasher; sessions: SessionService; throttle: CredentialThrottle }) {
  const pause = deps.throttle.limits.accountFromAddress.durationSeconds;
  return {
    /** `email` must already be normalised (trimmed, lower-cased) like the accounts table stores it. */
    async signIn(email: string, password: string, ip: string): Promise<SignInResult> {
      // Counted before the password is checked, so a concurrent burst gets no more checks than the limit.
      const attempt = await deps.throttle.beginPasswordAttempt(email, ip);
      if (!attempt.allowed) return { outcome: 'blocked', retryAfterSeconds: attempt.retryAfterSeconds };
      const account = await accountStore.findByEmail(deps.db, email);
      // verify() spends a bcrypt comparison for unknown emails too: timing does not reveal who has an account.
      const ok = await deps.passwords.verify(password, account?.passwordHash);
      if (!account || !ok) {
        if (attempt.attemptsLeft === 0) return { outcome: 'blocked', retryAfterSeconds: pause };
        return { outcome: 'wrong_credentials', attemptsLeft: attempt.attemptsLeft, pauseSeconds: pause };
      }
      await deps.throttle.succeeded(email, ip);
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
