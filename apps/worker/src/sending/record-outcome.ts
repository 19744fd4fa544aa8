import type { ServiceCause } from '@vf/core';
import type { InvoiceOutcome } from '@vf/db';

/** The authority's code and description a record is stored with, when there is one. */
interface Coded {
  code?: number | null;
  message?: string | null;
}

/** A retried record: why it goes again and when, and what the authority last said of it. */
export interface Retried {
  invoiceId: string;
  reason: string;
  code?: number;
  /** An EstadoRegistro this service does not know, as the authority wrote it. */
  unknownState?: string;
  retryAt: Date;
  /** Since when the chain's sends have been failing, and whether that is longer than the error threshold. */
  failingSince: Date;
  overdue: boolean;
}

/**
 * Where a record stands after what a send produced: the one place the send path chooses its status (the statuses
 * themselves, and who may move a record between them, are the statuses module's). Each function is one meaning:
 * what it writes (status, code, next attempt, the history line) follows from it here, never in a judge.
 */
export const recordOutcome = {
  /** Registered by the authority without a warning (`how`: what showed it, for the history). */
  accepted(invoiceId: string, csv: string | null, how: string): InvoiceOutcome {
    return { invoiceId, csv, status: 'accepted', note: how };
  },

  /** Registered by the authority with the code of a warning (AceptadoConErrores, 2007 included): never resent. */
  acceptedWithWarnings(invoiceId: string, csv: string | null, warning: Coded, how: string): InvoiceOutcome {
    return { invoiceId, csv, status: 'accepted_with_warnings', code: warning.code ?? null, message: warning.message ?? null, note: how };
  },

  /** Refused by the authority for itself (EstadoRegistro Incorrecto, or another record holds its number): final. */
  rejected(invoiceId: string, csv: string | null, refusal: Coded & { why: string; cause?: ServiceCause }): InvoiceOutcome {
    const { code, message, why, cause } = refusal;
    return {
      invoiceId,
      csv,
      status: 'rejected',
      code: code ?? null,
      message: message ?? null,
      cause: cause ?? null,
      note: `rejected: ${why}`,
    };
  },

  /**
   * Nothing the workers can do on their own: `error` with nothing planned, waiting for the user (or an operator).
   * `note`: the history line, when it says more or less than "error: why".
   */
  needsAttention(
    invoiceId: string,
    attention: Coded & { why: string; cause?: ServiceCause; csv?: string | null; note?: string },
  ): InvoiceOutcome {
    const { why, cause, note } = attention;
    return {
      invoiceId,
      csv: attention.csv ?? null,
      status: 'error',
      code: attention.code ?? null,
      message: attention.message ?? null,
      cause: cause ?? null,
      lastError: why,
      nextAttemptAt: null,
      note: note ?? `error: ${why}`,
    };
  },

  /**
   * Goes again, unchanged, at `retryAt`; there is no attempt limit. It shows `queued` until the sends have been failing
   * for the error threshold, then `error` (cause `outage`), still with its next attempt. An answer the service could
   * not understand is `error` (cause `unknown_answer`) at once.
   */
  retried(r: Retried): InvoiceOutcome {
    const base = { invoiceId: r.invoiceId, nextAttemptAt: r.retryAt };
    const next = `next attempt at ${r.retryAt.toISOString()}`;
    if (r.unknownState !== undefined) {
      const why = `${r.reason}; ${next}`;
      return {
        ...base,
        status: 'error',
        cause: 'unknown_answer',
        code: r.code ?? null,
        message: `EstadoRegistro ${r.unknownState}`,
        lastError: why,
        note: `error: ${why}`,
      };
    }
    if (r.overdue) {
      const why = `${r.reason}; failing since ${r.failingSince.toISOString()}; ${next}`;
      return { ...base, status: 'error', cause: 'outage', lastError: why, note: `error: ${why}` };
    }
    const why = `${r.reason}; ${next}`;
    return { ...base, status: 'queued', lastError: why, note: why };
  },
};
