import type { AuthorityAnswer } from '@vf/authority-client';
import { codeBehaviour } from '@vf/core';
import type { RemissionAnswer, RemissionProblemJson } from '@vf/db';
import type { ResponseLine, SubmissionResponse } from '@vf/xml';

/**
 * What an exchange of a remission's message means:
 * - `answered`: the authority judged each record (a record it already held, 3000, was delivered by an earlier attempt
 *   whose answer was lost, or is the authority's already: either way it holds it);
 * - `again`: nothing usable came back, or a technical error: the same message goes again, unchanged;
 * - `refused`: the authority refused the message for a reason sending it again cannot cure (its header, the
 *   certificate): the remission stops, with the authority's code.
 */
export type RemissionJudgement =
  | { kind: 'answered'; answer: RemissionAnswer }
  | { kind: 'again'; error: string }
  | { kind: 'refused'; code: number | null; message: string; responseXml: string };

const DUPLICATE = 3000;

function problemOf(line: ResponseLine): RemissionProblemJson {
  return {
    invoice_number: line.id.invoiceNumber,
    invoice_date: line.id.invoiceDate,
    state: line.state === 'AceptadoConErrores' ? 'AceptadoConErrores' : 'Incorrecto',
    ...(line.errorCode !== undefined && { code: line.errorCode }),
    ...((line.errorDescription ?? line.rawState) !== undefined && { description: line.errorDescription ?? line.rawState }),
  };
}

function answered(reply: SubmissionResponse, responseXml: string): RemissionJudgement {
  const answer: RemissionAnswer = {
    csv: reply.csv ?? null,
    sendState: reply.rawSendState ?? reply.sendState,
    accepted: 0,
    acceptedWithErrors: 0,
    duplicates: 0,
    rejected: 0,
    problems: [],
    responseXml,
    waitSeconds: reply.waitSeconds,
  };
  for (const line of reply.lines) {
    if (line.state === 'Correcto') answer.accepted += 1;
    else if (line.state === 'AceptadoConErrores') answer.acceptedWithErrors += 1;
    else if (line.errorCode === DUPLICATE) answer.duplicates += 1;
    else answer.rejected += 1;
    if (line.state !== 'Correcto' && line.errorCode !== DUPLICATE) answer.problems.push(problemOf(line));
  }
  return { kind: 'answered', answer };
}

/** Judges one exchange of a message of `records` records (pure). */
export function judgeRemissionAnswer(exchange: AuthorityAnswer<SubmissionResponse>, records: number): RemissionJudgement {
  switch (exchange.kind) {
    case 'no_answer':
      return { kind: 'again', error: `no answer: ${exchange.error}` };
    case 'unreadable':
      return { kind: 'again', error: `an answer that is not the service's (HTTP ${exchange.httpStatus})` };
    case 'certificate_refused':
      return {
        kind: 'refused',
        code: null,
        message: "HTTP 500 without a body: the certificate's holder may not present this taxpayer's records",
        responseXml: '',
      };
    case 'fault': {
      const { fault } = exchange;
      const retried = fault.code === undefined || fault.side === 'server' || codeBehaviour(fault.code).retried;
      if (retried) return { kind: 'again', error: fault.message };
      return { kind: 'refused', code: fault.code ?? null, message: fault.message, responseXml: exchange.responseXml };
    }
    case 'reply':
      // An answer that does not judge every record it carried cannot settle the message: it goes again.
      if (exchange.reply.lines.length !== records)
        return { kind: 'again', error: `the answer judged ${exchange.reply.lines.length} of ${records} records` };
      return answered(exchange.reply, exchange.responseXml);
  }
}
