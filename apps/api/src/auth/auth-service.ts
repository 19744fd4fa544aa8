import type { Credentials } from '@vf/contract';
import type { Db } from '@vf/db';
import { accountStore, StoreError, type AccountWithPlan } from '@vf/db';
import { ApiError } from '../errors/api-error';
import { createApiKeyAccounts } from './api-key-accounts';
import { digestApiKey, issueApiKey, looksLikeApiKey } from './api-key';
import type { RegisterRequest } from './auth-schemas';
import { tooManyAttempts, type CredentialThrottle } from './credential-throttle';
import type { PasswordHasher } from './password-hasher';

export interface AccountWithKey {
  account: AccountWithPlan;
  apiKey: string;
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: { db: Db; passwords: PasswordHasher; throttle: CredentialThrottle }) {
  const { db, passwords, throttle } = deps;
  const byApiKey = createApiKeyAccounts(db);

  async function reload(id: string): Promise<AccountWithPlan> {
    const account = await accountStore.findById(db, id);
    if (!account) throw new Error(`account ${id} vanished`);
    return account;
  }

  async function replaceKey(accountId: string): Promise<AccountWithKey> {
    const issued = issueApiKey();
    await accountStore.replaceKey(db, accountId, { apiKeyDigest: issued.digest, apiKeyHint: issued.hint });
    return { account: await reload(accountId), apiKey: issued.key };
  }

  return {
    /** `address` is the client's (req.ip): registrations are throttled per address. */
    async register(input: RegisterRequest, address: string): Promise<AccountWithKey> {
      await throttle.beginRegistration(address);
      const passwordHash = await passwords.hash(input.password);
      const issued = issueApiKey();
      const plan = await accountStore.defaultPlan(db);
      try {
        const id = await accountStore.insert(db, {
          name: input.name,
          email: input.email,
          passwordHash,
          apiKeyDigest: issued.digest,
          apiKeyHint: issued.hint,
          planId: plan.id,
        });
        return { account: await reload(id), apiKey: issued.key };
      } catch (err) {
        if (err instanceof StoreError && err.kind === 'conflict') {
          throw new ApiError(
            'email_taken',
            'An account with this email already exists; regenerate its key with the password if it is yours.',
          );
        }
        throw err;
      }
    },

    async authenticate(key: string): Promise<AccountWithPlan | undefined> {
      if (!looksLikeApiKey(key)) return undefined;
      return byApiKey.find(digestApiKey(key));
    },

    /** The old key stops matching the moment the new digest is written. */
    regenerateForAccount(accountId: string): Promise<AccountWithKey> {
      return replaceKey(accountId);
    },

    /** Throttled with dashboard sign-in: the attempt is counted before the password is checked. */
    async regenerateWithCredentials(input: Credentials, address: string): Promise<AccountWithKey> {
      const attempt = await throttle.beginPasswordAttempt(input.email, address);
      if (!attempt.allowed)
        throw tooManyAttempts('Too many failed attempts for this account; wait before trying again.', attempt.retryAfterSeconds);
      const account = await accountStore.findByEmail(db, input.email);
      const ok = await passwords.verify(input.password, account?.passwordHash);
      // One message for both cases: the answer must not reveal which emails have accounts.
      if (!account || !ok) throw new ApiError('invalid_credentials', 'Wrong email or password.');
      await throttle.succeeded(input.email, address);
      return replaceKey(account.id);
    },
  };
}
