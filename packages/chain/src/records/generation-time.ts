import { formatGeneratedAt } from '@vf/core';
import type { ChainHead } from '@vf/db';

export interface GenerationTime {
  at: Date;
  /** FechaHoraHusoGenRegistro exactly as hashed and sent. */
  literal: string;
}

/**
 * The record's generation time: now, to the second, in Madrid time — but never earlier than the
 * previous record's, so the chain's timestamps never go backwards even if the clock does.
 */
export function generationTime(now: Date, previous: Pick<ChainHead, 'generatedAt' | 'generatedAtLiteral'> | undefined): GenerationTime {
  const at = new Date(Math.floor(now.getTime() / 1000) * 1000);
  if (previous && at.getTime() < previous.generatedAt.getTime()) return { at: previous.generatedAt, literal: previous.generatedAtLiteral };
  return { at, literal: formatGeneratedAt(at) };
}
