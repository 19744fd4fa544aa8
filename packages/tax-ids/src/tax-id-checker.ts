import { createHash } from 'node:crypto';
import { CertificateUnusableError, resultOf, type CensusDetail, type CensusOutcome, type ViesVatNumber } from '@vf/authority-client';
import type { CensusTaxIdAnswer, TaxIdAnswer, TaxIdCheckInput } from '@vf/contract';
import { formatGeneratedAt, madridToday, normaliseCensusName } from '@vf/core';
import { taxIdChecksTotal, taxIdServiceDuration } from '@vf/metrics';
import { censusCheckStore, senderTaxpayerStore, type CensusAnswer, type Db, type SenderTaxpayer, type TaxIdCheck } from '@vf/db';
import { TaxIdCheckRefusal } from './tax-id-check-refusal';
import type { CensusGateway } from './census-gateway';
import { isViesQuestion } from './tax-id-answer';
import { checkVatNumbers } from './vies-checks';
import type { ViesGateway } from './vies-gateway';

interface CensusRow {
  nif: string;
  /** As the census compares it, and as it is sent. */
  name: string;
  nameDigest: string;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const keyOf = (nif: string, nameDigest: string) => `${nif} ${nameDigest}`;

function fromCache(held: CensusAnswer): CensusTaxIdAnswer {
  const detail = held.detail as CensusDetail;
  return {
    nif: held.nif,
    result: resultOf(detail),
    detail,
    ...(held.censusName !== null && { censusName: held.censusName }),
    source: 'cache',
    checkedAt: held.checkedAt,
  };
}

function fromCensus(answer: CensusAnswer): CensusTaxIdAnswer {
  return { ...fromCache(answer), source: 'aeat_census' };
}

/** The census's outcomes as answers to keep, by NIF and name. */
function censusAnswers(rows: readonly CensusRow[], outcomes: readonly CensusOutcome[], now: Date): Map<string, CensusAnswer> {
  return new Map(
    rows.map((row, i) => {
      const outcome = outcomes[i]!;
      const answer: CensusAnswer = {
        nif: row.nif,
        nameDigest: row.nameDigest,
        detail: outcome.detail,
        censusName: outcome.censusName ?? null,
        requestDigest: outcome.requestDigest,
        checkedAt: now,
      };
      return [keyOf(row.nif, row.nameDigest), answer];
    }),
  );
}

/** What the account keeps of a check: no name, only the tax ID, the answer and the request's digest. */
function evidenceOf(answer: CensusTaxIdAnswer & { digest: string }): TaxIdCheck {
  return {
    taxId: answer.nif,
    result: answer.result,
    detail: answer.detail,
    source: answer.source,
    requestDigest: answer.digest,
    checkedAt: answer.checkedAt,
  };
}

/** The census's outcomes for these rows, under the holder's certificate (the platform's without one). */
async function askCensus(census: CensusGateway | undefined, rows: CensusRow[], holder: SenderTaxpayer | undefined) {
  if (!census) throw new TaxIdCheckRefusal('census_unavailable', 'This deployment is not set up to reach the census.');
  const timer = taxIdServiceDuration.startTimer({ service: 'census' });
  try {
    const outcomes = await census.ask(
      rows.map((row) => ({ nif: row.nif, name: row.name })),
      holder,
    );
    timer({ outcome: outcomes.some((o) => o.detail === 'not_processed') ? 'unknown' : 'answered' });
    return outcomes;
  } catch (error) {
    timer({ outcome: 'failed' });
    if (!(error instanceof CertificateUnusableError)) throw error;
    throw new TaxIdCheckRefusal('census_unavailable', `The census cannot be asked: ${error.message}.`);
  }
}

/** The start of the calendar month (Europe/Madrid) `now` is in: Madrid never changes offset on a month's first day. */
function monthStart(now: Date): Date {
  const firstDay = `${madridToday(now).slice(0, 7)}-01`;
  return new Date(`${firstDay}T00:00:00${formatGeneratedAt(new Date(`${firstDay}T00:00:00Z`)).slice(-6)}`);
}

/**
 * Refuses `count` more checks past the plan's monthly allowance (every tax ID checked counts, the cache's answers too:
 * each is a check of the account's, with its evidence).
 */
async function assertAllowance(db: Db, now: Date, accountId: string, count: number): Promise<void> {
  const { used, allowance } = await censusCheckStore.monthlyUsage(db, accountId, monthStart(now));
  if (used + count <= allowance) return;
  throw new TaxIdCheckRefusal(
    'tax_id_checks_exceeded',
    `Your plan allows ${allowance} tax ID checks a month; ${used} are used and this request asks ${count}. The count starts again on the 1st (Europe/Madrid).`,
  );
}

/**
 * Checks tax IDs against the census: answers the deployment already holds within `maxAge` come from the cache, the
 * rest from the census in one call; answers that hold are kept for every account, each account keeps its evidence.
 */
export function createTaxIdChecker(deps: { db: Db; census?: CensusGateway; vies?: ViesGateway; clock: () => Date }) {
  const { db, clock } = deps;

  async function certificateHolder(accountId: string, taxpayerId: string | undefined): Promise<SenderTaxpayer | undefined> {
    if (taxpayerId === undefined) return undefined;
    const taxpayer = await senderTaxpayerStore.ofAccount(db, accountId, taxpayerId);
    if (!taxpayer) throw new TaxIdCheckRefusal('taxpayer_not_found', 'No taxpayer with this id in your account.');
    return taxpayer;
  }

  async function checkNifs(
    accountId: string,
    questions: { nif: string; name: string }[],
    maxAge: number,
    holder: SenderTaxpayer | undefined,
  ): Promise<CensusTaxIdAnswer[]> {
    if (questions.length === 0) return [];
    const now = clock();
    const rows = questions.map((q) => {
      const name = normaliseCensusName(q.name);
      return { nif: q.nif, name, nameDigest: sha256(name) };
    });
    const notBefore = new Date(now.getTime() - maxAge * 1000);
    const held = await censusCheckStore.freshAnswers(
      db,
      rows.map((r) => r.nif),
      notBefore,
    );
    const cached = new Map(held.map((a) => [keyOf(a.nif, a.nameDigest), a]));
    const missing = [...new Map(rows.map((r) => [keyOf(r.nif, r.nameDigest), r])).values()].filter(
      (r) => !cached.has(keyOf(r.nif, r.nameDigest)),
    );
    const asked = censusAnswers(missing, missing.length > 0 ? await askCensus(deps.census, missing, holder) : [], now);
    // Never kept: an answer the census did not give.
    await censusCheckStore.keepAnswers(
      db,
      [...asked.values()].filter((a) => a.detail !== 'not_processed'),
    );
    const answers = rows.map((row) => {
      const key = keyOf(row.nif, row.nameDigest);
      const hit = cached.get(key);
      return hit
        ? { ...fromCache(hit), digest: hit.requestDigest }
        : { ...fromCensus(asked.get(key)!), digest: asked.get(key)!.requestDigest };
    });
    await censusCheckStore.recordChecks(db, accountId, answers.map(evidenceOf));
    for (const a of answers) taxIdChecksTotal.inc({ source: a.source, result: a.result });
    return answers.map(({ digest: _digest, ...answer }) => answer);
  }

  return {
    /** One answer per question, in the order asked: Spanish NIFs from the census (or its answers held), VAT numbers from VIES. */
    async check(accountId: string, input: TaxIdCheckInput): Promise<TaxIdAnswer[]> {
      const holder = await certificateHolder(accountId, input.taxpayerId);
      const nifs = input.taxIds.filter((q) => !isViesQuestion(q)) as { nif: string; name: string }[];
      const vatNumbers = input.taxIds.filter(isViesQuestion).map((q) => q.vatNumber);
      const requester: ViesVatNumber | undefined = holder && { countryCode: 'ES', vatNumber: holder.nif };
      const [census, vies] = await Promise.all([
        checkNifs(accountId, nifs, input.maxAge, holder),
        checkVatNumbers(deps, accountId, vatNumbers, requester),
      ]);
      let [c, v] = [0, 0];
      return input.taxIds.map((q) => (isViesQuestion(q) ? vies[v++]! : census[c++]!));
    },

    /** Refuses `count` more checks past the plan's monthly allowance. */
    assertAllowance: (accountId: string, count: number) => assertAllowance(db, clock(), accountId, count),

    /** The account's own evidence, newest first. */
    evidence(accountId: string, opts: { limit: number; taxId?: string }) {
      return censusCheckStore.listChecks(db, accountId, opts);
    },
  };
}

export type TaxIdChecker = ReturnType<typeof createTaxIdChecker>;
