import Joi from 'joi';

/** What the simulated census holds about a NIF an operator seeded (POST /__sim/census). */
export const CENSUS_STATUSES = ['identified', 'deregistered', 'revoked', 'unknown', 'not_processed'] as const;
export type CensusStatus = (typeof CENSUS_STATUSES)[number];

export interface CensusEntry {
  nif: string;
  status: CensusStatus;
  /** The registered name; without one, any name asked with the NIF is taken as its own. */
  name?: string;
}

const entries = Joi.object({
  entries: Joi.array()
    .items(
      Joi.object({
        nif: Joi.string()
          .pattern(/^[0-9A-Z]{9}$/)
          .required(),
        status: Joi.string()
          .valid(...CENSUS_STATUSES)
          .required(),
        name: Joi.string().min(1).max(120),
      }),
    )
    .min(1)
    .max(10_000)
    .required(),
});

/** `{"entries": [{"nif", "status", "name"?}]}` from JSON; throws with a readable message. */
export function parseCensusEntries(input: unknown): CensusEntry[] {
  const { value, error } = entries.validate(input, { convert: false });
  if (error) throw new Error(error.message);
  return value.entries as CensusEntry[];
}

/**
 * The census's own entries, beside the rule every other NIF follows (a valid NIF not listed as unknown is known):
 * deregistered and revoked NIFs, registered names to compare with, NIFs the census does not know or cannot process.
 */
export class CensusBook {
  private readonly byNif = new Map<string, CensusEntry>();

  seed(list: readonly CensusEntry[]): void {
    for (const entry of list) this.byNif.set(entry.nif, entry);
  }

  get(nif: string): CensusEntry | undefined {
    return this.byNif.get(nif);
  }

  list(): CensusEntry[] {
    return [...this.byNif.values()];
  }

  clear(): void {
    this.byNif.clear();
  }
}
