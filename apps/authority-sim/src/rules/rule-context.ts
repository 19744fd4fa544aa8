import type { RuleSetId } from './rule-set';

/** What a rule may know besides the message: the rule set in force, the authority's clock and its census. */
export interface RuleContext {
  ruleSet: RuleSetId;
  /** The simulator's clock, with the offset an admin may have set. */
  now: Date;
  /** Cabecera/ObligadoEmision/NIF of the message. */
  headerNif: string;
  /** NIFs and foreign identifiers the census does not know (everything else is known). */
  unknown: ReadonlySet<string>;
}

/** A code a rule found, with the words that complete its text (1287 names the field; 2004 states its margin). */
export interface Finding {
  code: number;
  detail?: string;
}

/** A rule answers nothing, a code, or a code with detail. */
export type Rule<T> = (subject: T, ctx: RuleContext) => Finding | number | undefined;

/** The first rule that finds something: the authority reports one code per record, the first it meets. */
export function firstFinding<T>(rules: readonly Rule<T>[], subject: T, ctx: RuleContext): Finding | undefined {
  for (const rule of rules) {
    const found = rule(subject, ctx);
    if (found !== undefined) return typeof found === 'number' ? { code: found } : found;
  }
  return undefined;
}

/** The first finding of a rule applied to each item of a list (lines, recipients). */
export function firstOfEach<T>(items: readonly T[], rule: (item: T) => Finding | number | undefined): Finding | number | undefined {
  for (const item of items) {
    const found = rule(item);
    if (found !== undefined) return found;
  }
  return undefined;
}
