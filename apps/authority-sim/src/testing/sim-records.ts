import { chainLinkOf, type CancellationRecord, type ChainRecord, type InvoiceId, type RegistrationRecord } from '@vf/core';
import { cancellationRecord, f1Record } from '@vf/xml/testing';
import { expectedHuella } from '../record-hash';
import { madridInvoiceDate, madridTimestamp } from '../spain-time';

/**
 * A record the simulator accepts as Correcto right now: issued today, generated now, chained to
 * `previous` (or first), with the right huella. Overrides are applied before sealing unless `hash` is given.
 */
export function freshRecord(
  issuerNif: string,
  invoiceNumber: string,
  opts: { previous?: ChainRecord; overrides?: Partial<RegistrationRecord>; now?: Date } = {},
): RegistrationRecord {
  const now = opts.now ?? new Date();
  const record = f1Record(
    { issuerNif, invoiceNumber, invoiceDate: madridInvoiceDate(now) },
    { generatedAt: madridTimestamp(now), ...opts.overrides },
  );
  if (opts.previous) record.previous = chainLinkOf(opts.previous);
  if (opts.overrides?.hash === undefined) record.hash = expectedHuella(record);
  return record;
}

/** An anulación of `cancelled` the simulator accepts as Correcto right now (when the matrix allows it), chained to `previous`. */
export function freshCancellation(
  cancelled: InvoiceId,
  opts: { previous?: ChainRecord; overrides?: Partial<CancellationRecord>; now?: Date } = {},
): CancellationRecord {
  const record = cancellationRecord(cancelled, { generatedAt: madridTimestamp(opts.now ?? new Date()), ...opts.overrides });
  if (opts.previous) record.previous = chainLinkOf(opts.previous);
  if (opts.overrides?.hash === undefined) record.hash = expectedHuella(record);
  return record;
}

/** A chain of n correct records for one taxpayer, oldest first. */
export function freshChain(issuerNif: string, prefix: string, n: number, previous?: ChainRecord): RegistrationRecord[] {
  const chain: RegistrationRecord[] = [];
  for (let i = 1; i <= n; i += 1) {
    chain.push(freshRecord(issuerNif, `${prefix}-${String(i).padStart(4, '0')}`, { previous: chain[chain.length - 1] ?? previous }));
  }
  return chain;
}
