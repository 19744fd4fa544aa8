import type { ChainRecord, ChainVerification, Environment } from '@vf/contract';
import type { Db, DbOrTx } from '@vf/db';
import { chainStore, signedRecordStore, taxpayerStore, type SignatureToVerify, type TaxpayerView } from '@vf/db';
import { normalizeNif } from '@vf/core';
import { ApiError } from '../errors/api-error';
import { isUuid } from '../http/is-uuid';
import { verifyKeptSignatures, verifySignatures } from '@vf/chain/signature-pool';
import type { SignatureVerdict } from '@vf/signing/verify-record-signature';
import { judgeSignature, signedHuellaOf } from '../verification/signature-check';
import type { SignerPolicy } from '../verification/signer-policy';
import { verifyChain } from './verify-chain';

// Records read a statement: the walk holds two pages and their signatures at most, whatever the chain's length.
const PAGE = 1000;
const RECENT_LINKS = 20;

export type ChainVerificationService = ReturnType<typeof createChainVerificationService>;

/** Positions of the chain to check, both included; absent ends: the chain's start and end. */
export interface ChainRange {
  from?: number;
  to?: number;
}

interface ChainHead {
  id: string | null;
  chainLength: number;
  lastHash: string | null;
}

/** A record's signature verdict (none: no signed record) and the huella its signed record carries. */
interface Verdict {
  verdict: SignatureVerdict | undefined;
  signedHuella: string | undefined;
}
type PendingVerdicts = Map<string, Promise<Verdict>>;

/**
 * The verdicts on a page's signatures, started at once on the signature pool's threads: those kept as parts (decision
 * 0064) from their rows and parts, any other signed text by the verifier; the huella each carries, its row's or read.
 */
function verdictsOf(ids: string[], kept: Map<string, SignatureToVerify>, pending: PendingVerdicts): void {
  const texts = ids.flatMap((id) => {
    const k = kept.get(id);
    return k?.xml !== undefined ? [{ id, xml: k.xml }] : [];
  });
  const parts = ids.flatMap((id) => {
    const k = kept.get(id)?.kept;
    return k ? [{ id, k }] : [];
  });
  const onTexts = verifySignatures(texts.map((t) => t.xml));
  const onParts = verifyKeptSignatures(parts.map((p) => p.k));
  texts.forEach(({ id, xml }, i) =>
    pending.set(
      id,
      onTexts.then((v) => ({ verdict: v[i], signedHuella: signedHuellaOf(xml) })),
    ),
  );
  parts.forEach(({ id, k }, i) =>
    pending.set(
      id,
      onParts.then((v) => ({ verdict: v[i], signedHuella: k.row.hash })),
    ),
  );
  for (const id of ids) if (!pending.has(id)) pending.set(id, Promise.resolve({ verdict: undefined, signedHuella: undefined }));
  // A walk that stops at a broken link never asks for the rest; their failure is then nobody's to report.
  for (const id of ids) pending.get(id)!.catch(() => undefined);
}

/** One page of a chain's records after position `after`; their signatures start being verified at once. */
async function pageOf(db: DbOrTx, chainId: string, after: number, limit: number, pending: PendingVerdicts): Promise<ChainRecord[]> {
  const page = await chainStore.recordsInOrder(db, chainId, after, limit);
  const ids = page.map((r) => r.id);
  verdictsOf(ids, await signedRecordStore.toVerify(db, ids), pending);
  return page;
}

/**
 * The records of a chain from position `from` to `to`, page by page, their signatures verified on the side. The next
 * page is asked for before this one is walked, so PostgreSQL reads it while the walk goes on (two pages held at most).
 */
async function* recordsOf(
  db: DbOrTx,
  chainId: string | null,
  from: number,
  to: number | undefined,
  pageSize: number,
  pending: PendingVerdicts,
): AsyncGenerator<ChainRecord> {
  if (!chainId) return;
  const limitAfter = (after: number) => (to === undefined ? pageSize : Math.min(pageSize, to - after));
  let after = from - 1;
  let next: Promise<ChainRecord[]> | undefined =
    to === undefined || after < to ? pageOf(db, chainId, after, limitAfter(after), pending) : undefined;
  while (next) {
    const limit = limitAfter(after);
    const page = await next;
    next = undefined;
    if (page.length === limit) {
      after = page[page.length - 1].chainSeq;
      if (to === undefined || after < to) {
        next = pageOf(db, chainId, after, limitAfter(after), pending);
        // A walk that stops at a broken link leaves this read unawaited; its failure is then nobody's to report.
        next.catch(() => undefined);
      }
    }
    yield* page;
  }
}

/** `pageSize`: records read a statement (tests walk many pages of a short chain with a small one). */
export function createChainVerificationService(deps: { db: Db; signers: SignerPolicy; pageSize?: number }) {
  const pageSize = deps.pageSize ?? PAGE;
  async function ownTaxpayer(db: DbOrTx, accountId: string, taxpayerId: string): Promise<TaxpayerView> {
    const taxpayer = isUuid(taxpayerId) ? await taxpayerStore.find(db, accountId, taxpayerId) : undefined;
    if (!taxpayer) throw new ApiError('taxpayer_not_found', 'No taxpayer with this id in your account.');
    return taxpayer;
  }

  /** Recomputes each huella and link from the stored values and verifies each signature, over the range asked for. */
  async function walk(db: DbOrTx, chain: ChainHead, range: ChainRange): Promise<ChainVerification> {
    const from = range.from ?? 1;
    const before = from > 1 && chain.id ? (await chainStore.recordsInOrder(db, chain.id, from - 2, 1))[0] : undefined;
    const pending: PendingVerdicts = new Map();
    return verifyChain(
      recordsOf(db, chain.id, from, range.to, pageSize, pending),
      { chainLength: chain.chainLength, lastHash: chain.lastHash },
      {
        ...(range.from !== undefined ? { from } : {}),
        ...(before ? { before } : {}),
        ...(range.to !== undefined ? { to: range.to } : {}),
        signature: async (record) => {
          const { verdict, signedHuella } = await pending.get(record.id)!;
          pending.delete(record.id);
          return judgeSignature(verdict, signedHuella, record, deps.signers);
        },
      },
    );
  }

  // Head and records are read in one repeatable-read snapshot, so records appended meanwhile neither appear
  // half-way nor count as a broken head.
  const snapshot = <T>(work: (tx: DbOrTx) => Promise<T>) =>
    deps.db.transaction(work, { isolationLevel: 'repeatable read', accessMode: 'read only' });

  return {
    /** The latest links of the chain, newest first, for the chain page. */
    async recentLinks(accountId: string, taxpayerId: string): Promise<{ taxpayer: TaxpayerView; links: ChainRecord[] }> {
      const taxpayer = await ownTaxpayer(deps.db, accountId, taxpayerId);
      const links = taxpayer.chainId
        ? await chainStore.recordsInOrder(deps.db, taxpayer.chainId, Math.max(0, taxpayer.chainLength - RECENT_LINKS), RECENT_LINKS)
        : [];
      return { taxpayer, links: links.reverse() };
    },

    /** The taxpayer's current chain (the dashboard's Verify chain). */
    verify(accountId: string, taxpayerId: string, range: ChainRange = {}): Promise<{ taxpayer: TaxpayerView; result: ChainVerification }> {
      return snapshot(async (tx) => {
        const taxpayer = await ownTaxpayer(tx, accountId, taxpayerId);
        const result = await walk(tx, { id: taxpayer.chainId, chainLength: taxpayer.chainLength, lastHash: taxpayer.lastHash }, range);
        return { taxpayer, result };
      });
    },

    /** The chain of the account's taxpayer with this NIF in `environment` (default: its current one), as the API asks. */
    verifyByNif(accountId: string, nif: string, environment: Environment | undefined, range: ChainRange): Promise<ChainVerification> {
      return snapshot(async (tx) => {
        const taxpayer = await taxpayerStore.findByNif(tx, accountId, normalizeNif(nif));
        if (!taxpayer) throw new ApiError('chain_not_found', 'No taxpayer with this NIF in your account.');
        const chain = await chainStore.state(tx, taxpayer.id, environment ? environment === 'production' : taxpayer.isProduction);
        return walk(tx, { id: chain?.id ?? null, chainLength: chain?.chainLength ?? 0, lastHash: chain?.lastHash ?? null }, range);
      });
    },
  };
}
