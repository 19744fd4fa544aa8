import type { DbOrTx } from '@vf/db';

/** Runs last inside a write's transaction, with its result: what must commit together with the write. */
export type BeforeCommit<T> = (tx: DbOrTx, result: T) => Promise<void>;
