import { registrationCount, type AppendAccount, type AppendContext, type AppendRead, type AppendWrite, type AssumedRead } from '@vf/db';
import type { Group } from './append-group';

/** Chains whose last write's read is kept, at most (the oldest is forgotten first). */
const KEPT_CHAINS = 1000;

interface Kept {
  account: AppendAccount;
  keyDigest?: string;
  read: AppendRead;
}

/**
 * The read of each chain this process last wrote, as it stands after that write: what the next append to the chain
 * would read, unless something else changed it meanwhile. An append built on it needs no read of its own (one round
 * trip instead of two); its write checks that the head did not move and that everything else the read would have
 * found is as assumed (AssumedRead in @vf/db), and when not, it stores nothing and the append reads as always.
 * Keyed by the writer's group key (API key or account, taxpayer, scenario chain or not).
 */
export function keptReads() {
  const kept = new Map<string, Kept>();
  const keyOf = (group: Group) => group.units[0].key;

  /** The read to build `group` on, with what its write must check; none when this process has none for its chain. */
  function assume(group: Group): { read: AppendRead; assumed: (write: AppendWrite) => AssumedRead } | undefined {
    const k = kept.get(keyOf(group));
    if (!k) return undefined;
    const ctx = k.read.context!;
    return {
      read: k.read,
      assumed: (write) => ({
        accountId: k.account.id,
        keyDigest: k.keyDigest,
        planId: k.account.plan.id,
        nif: ctx.taxpayer.nif,
        name: ctx.taxpayer.name,
        severalTaxpayers: ctx.severalTaxpayers,
        systems: write.systems.map((id) => ctx.systems.get(id)!),
        invoices: group.items.map((i) => i.invoice),
      }),
    };
  }

  /**
   * After `write`, built on `read` for `group`, was stored: the read as it now stands. `account`: the group's, checked;
   * `keyDigest`: the API key the group came with, when its read checked it.
   */
  function keep(group: Group, who: { account: AppendAccount; keyDigest?: string }, read: AppendRead, write: AppendWrite): void {
    const ctx = read.context!;
    const last = write.records[write.records.length - 1];
    // The write took each single-taxpayer system still free for this taxpayer.
    const taken = write.soleSystems.filter((id) => ctx.systems.get(id)!.soleTaxpayerId === null);
    const systems = taken.length > 0 ? new Map(ctx.systems) : ctx.systems;
    for (const id of taken) systems.set(id, { ...systems.get(id)!, soleTaxpayerId: ctx.taxpayer.id });
    const context: AppendContext = {
      ...ctx,
      chain: {
        ...ctx.chain,
        length: last.chainSeq,
        lastInvoiceId: last.id,
        usage: { ...ctx.chain.usage, used: ctx.chain.usage.used + registrationCount(write) },
      },
      previous: {
        id: last.id,
        issuerNif: last.issuerNif,
        invoiceNumber: last.invoiceNumber,
        invoiceDate: last.invoiceDate,
        hash: last.hash,
        generatedAt: last.generatedAt,
        generatedAtLiteral: last.generatedAtLiteral,
      },
      systems,
      duplicates: new Set(),
    };
    const key = keyOf(group);
    kept.delete(key);
    kept.set(key, { ...who, read: { ...read, context } });
    if (kept.size > KEPT_CHAINS) kept.delete(kept.keys().next().value!);
  }

  /** The chain's kept read no longer holds (or may not): the next append reads. */
  const forget = (group: Group) => kept.delete(keyOf(group));

  return { assume, keep, forget };
}

export type KeptReads = ReturnType<typeof keptReads>;
