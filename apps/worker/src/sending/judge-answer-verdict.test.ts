import { sendOutcome, verdictOf, type Exchange } from './judge-answer';

test('how the exchange went decides the outcome the submission shows and the sends metric counts', () => {
  const cases: [Exchange, string, string][] = [
    [{ exchange: 'answered' }, 'answered', 'answered'],
    [{ exchange: 'refused' }, 'fault', 'message_rejected'],
    [{ exchange: 'unanswered', failure: 'server_fault' }, 'fault', 'server_fault'],
    [{ exchange: 'unanswered', failure: 'no_answer' }, 'transport_error', 'no_answer'],
  ];
  for (const [exchange, submission, metric] of cases) {
    const verdict = verdictOf({ ...exchange, details: { httpStatus: 500, errorMessage: 'why' }, records: [] });
    expect([verdict.submission, sendOutcome(verdict)]).toEqual([{ outcome: submission, httpStatus: 500, errorMessage: 'why' }, metric]);
    expect(verdict.waitSeconds).toBe(0);
  }
});
