import { codeBehaviour } from '@vf/core';
import type { RemissionMessageView, RemissionView } from '@vf/db';

function renderMessage(m: RemissionMessageView) {
  return {
    seq: m.seq,
    record_count: m.recordCount,
    last: m.isLast,
    status: m.status,
    attempts: m.attempts,
    csv: m.csv,
    send_state: m.sendState,
    accepted: m.accepted,
    accepted_with_errors: m.acceptedWithErrors,
    already_held: m.duplicates,
    rejected: m.rejected,
    problems: m.problems,
    last_error: m.lastError,
    sent_at: m.sentAt?.toISOString() ?? null,
    answered_at: m.answeredAt?.toISOString() ?? null,
  };
}

/** A remission as the API answers it; its messages when it was read alone. */
export function renderRemission(r: Omit<RemissionView, 'messages'> & { messages?: RemissionMessageView[] }) {
  const text = r.errorCode !== null ? codeBehaviour(r.errorCode).text : undefined;
  return {
    id: r.id,
    taxpayer_id: r.taxpayerId,
    environment: r.isProduction ? 'production' : 'sandbox',
    requirement_reference: r.reference,
    period: { from: r.from, to: r.to },
    status: r.status,
    record_count: r.recordCount,
    message_count: r.messageCount,
    messages_answered: r.messages?.filter((m) => m.status === 'answered').length ?? (r.status === 'completed' ? r.messageCount : 0),
    next_send_at: r.status === 'sending' ? r.nextSendAt.toISOString() : null,
    error:
      r.status === 'failed'
        ? {
            code: r.errorCode,
            message: r.errorMessage ?? '',
            ...(text && {
              explanation: { es: `${text.es.explanation} ${text.es.nextStep}`, en: `${text.en.explanation} ${text.en.nextStep}` },
            }),
          }
        : null,
    created_at: r.createdAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    ...(r.messages && { messages: r.messages.map(renderMessage) }),
  };
}
