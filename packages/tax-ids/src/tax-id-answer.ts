import type { TaxIdQuestion } from '@vf/contract';

// A question and its answers are written in @vf/contract: the API answers with them as the checker makes them.
export const isViesQuestion = (q: TaxIdQuestion): q is { vatNumber: string } => 'vatNumber' in q;
