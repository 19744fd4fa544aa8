import type { Pool } from 'pg';

export interface ChainCheck {
  chains: number;
  records: number;
  /** Records not at the position their chain_seq claims (a gap, or a duplicated position). */
  gaps: number;
  /** Predecessors claimed by more than one record (two records chained to the same hash, or two first records). */
  forks: number;
  /** Records whose previous_hash is not the hash of the record before them. */
  brokenLinks: number;
  /** Chains whose head (chains.chain_length) disagrees with their records. */
  headMismatches: number;
  /** Invoices the load generator saw registered, and what the database holds for these taxpayers. */
  acknowledged: number;
  /** Requests that ended without an answer (timeouts, resets): they may or may not have been stored. */
  uncertain: number;
  ok: boolean;
  problems: string[];
}

/**
 * Checks every chain of the given taxpayers in the database: positions 1..n without gaps or duplicates, one
 * record per predecessor, each previous_hash equal to the hash before it, the head in agreement, and exactly
 * the registrations the clients were told about (give or take the requests that never got an answer).
 */
export async function checkChains(pool: Pool, taxpayerIds: string[], acknowledged: number, uncertain: number): Promise<ChainCheck> {
  const { rows } = await pool.query<{ chains: number; records: number; gaps: number; broken: number }>(
    `WITH c AS (
       SELECT taxpayer_id, chain_seq, previous_hash, lag(hash) OVER w AS prior_hash, row_number() OVER w AS position
       FROM invoices WHERE taxpayer_id = ANY($1::uuid[])
       WINDOW w AS (PARTITION BY taxpayer_id ORDER BY chain_seq, id))
     SELECT count(DISTINCT taxpayer_id)::int AS chains, count(*)::int AS records,
       count(*) FILTER (WHERE chain_seq <> position)::int AS gaps,
       count(*) FILTER (WHERE previous_hash IS DISTINCT FROM prior_hash)::int AS broken
     FROM c`,
    [taxpayerIds],
  );
  const forks = await pool.query<{ forks: number }>(
    `SELECT count(*)::int AS forks FROM (
       SELECT 1 FROM invoices WHERE taxpayer_id = ANY($1::uuid[]) GROUP BY taxpayer_id, previous_hash HAVING count(*) > 1) f`,
    [taxpayerIds],
  );
  const heads = await pool.query<{ mismatches: number }>(
    `SELECT count(*)::int AS mismatches FROM chains c
     WHERE c.taxpayer_id = ANY($1::uuid[]) AND c.chain_length <> (SELECT count(*) FROM invoices i WHERE i.chain_id = c.id)`,
    [taxpayerIds],
  );
  const headMismatches = heads.rows[0].mismatches;
  const { chains, records, gaps, broken } = rows[0];
  const problems: string[] = [];
  if (gaps) problems.push(`${gaps} records out of place (gap or duplicate position)`);
  if (forks.rows[0].forks) problems.push(`${forks.rows[0].forks} forks`);
  if (broken) problems.push(`${broken} broken previous-hash links`);
  if (headMismatches) problems.push(`${headMismatches} chain heads disagree with their records`);
  if (records < acknowledged) problems.push(`${acknowledged - records} acknowledged registrations missing`);
  if (records > acknowledged + uncertain)
    problems.push(`${records - acknowledged - uncertain} records stored that no client was told about`);
  return {
    chains,
    records,
    gaps,
    forks: forks.rows[0].forks,
    brokenLinks: broken,
    headMismatches,
    acknowledged,
    uncertain,
    ok: problems.length === 0,
    problems,
  };
}
