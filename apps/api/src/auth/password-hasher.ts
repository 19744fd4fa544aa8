import bcrypt from 'bcrypt';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Also spends a bcrypt comparison when there is no stored hash, so unknown emails take as long as wrong passwords. */
  verify(password: string, storedHash: string | undefined): Promise<boolean>;
}

export function createPasswordHasher(cost: number): PasswordHasher {
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => bcrypt.hash(password, cost),
    async verify(password, storedHash) {
      if (storedHash) return bcrypt.compare(password, storedHash);
      dummy ??= bcrypt.hash('not-a-real-password', cost);
      await bcrypt.compare(password, await dummy);
      return false;
    },
  };
}
